// `npm start`: the whole store on one machine, from nothing but Node and redis-server.
//
// Process model (docs/decisions/003-local-stack.md):
//   start (this process, the supervisor)
//   ├── services host   own process group: embedded Postgres + redis-server, for whichever URL is not configured
//   ├── projections     own process group: node --import tsx projections/src/main.ts
//   ├── workers         own process group: node --import tsx workers/src/main.ts
//   └── api             own process group: node --import tsx services/api/src/main.ts
// Each role is the same entry production runs, configured by the environment this supervisor fills in. A Ctrl-C in
// the terminal reaches only the supervisor, which stops api, workers, projections, then Redis and Postgres; a
// second Ctrl-C kills everything at once. The steps live in scripts/lib (launch.ts, stack.ts, command.ts), shared
// with `npm run start:cluster`.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runStoreCommand } from './lib/command.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

process.exitCode = await runStoreCommand(ROOT, 'single', 'npm start');
// Anything still holding the event loop (a stuck socket) must not keep a stopped stack's terminal.
setTimeout(() => process.exit(), 3000).unref();
