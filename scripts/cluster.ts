// `npm run start:cluster`: the store scaled out on one machine (docs/decisions/017-scale-out.md).
//
//   cluster (this process: the supervisor)
//   ├── haproxy          on PORT, in front of the api instances and the emulator (deploy/haproxy.cfg)
//   ├── services host    embedded Postgres + redis-server (only for what is not configured)
//   ├── paypal-sandbox   the PayPal emulator, one for the cluster, behind haproxy at /paypal-sandbox
//   ├── projections-1/2  one active (advisory lock), one hot standby
//   ├── workers-1/2      one active reactor, one standby; job consumers in both
//   └── api-1/2          on free loopback ports, round-robin behind haproxy while they pass /readyz
//
// The same preparation, Ctrl-C and restart-on-crash as `npm start`; startCluster() is the same for tests.
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadConfig } from '@licensestore/platform/config';
import { runStoreCommand } from './lib/command.js';
import { launchStore } from './lib/launch.js';
import type { RoleName, RoleProcess } from './lib/roles.js';
import type { LocalService } from './lib/services-protocol.js';
import { Stack } from './lib/stack.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export interface ClusterOptions {
  /** Absolute; its own embedded Postgres and Redis live here unless `env` configures them. */
  dataDir: string;
  /** Where haproxy serves the store. */
  port: number;
  /** The environment the configuration is read from and the roles inherit. */
  env: NodeJS.ProcessEnv;
  /** Every line the supervisor and its processes print (default: dropped). */
  write?: (line: string) => void;
}

/** One process of a role as it is now; after a crash the supervisor starts another under the same label. */
export interface ClusterInstance {
  label: string;
  role: RoleName;
  pid: number;
  /** Signals the process itself (not its group: SIGKILL must look like a crash of that one process). */
  kill: (signal: NodeJS.Signals) => void;
  /** Resolves with the process the supervisor started in this one's place. */
  replaced: () => Promise<ClusterInstance>;
}

export interface RunningCluster {
  url: string;
  dataDir: string;
  databaseUrl: string;
  redisUrl: string;
  /** Each api instance's own URL, by label (api-1, api-2). */
  apiUrls: ReadonlyMap<string, string>;
  /** Every instance now running, e.g. projections-1, workers-2, api-1, paypal-sandbox. */
  instances: () => ClusterInstance[];
  instance: (label: string) => ClusterInstance;
  /** Stops the local server and starts it again on the same port and data (Redis with its append-only file). */
  restartService: (service: LocalService) => Promise<void>;
  /** Names of the servers haproxy has in rotation (up, and their last health check passed). */
  inRotation: () => Promise<string[]>;
  /** Answers each server has given through haproxy so far, by name. */
  served: () => Promise<Record<string, number>>;
  stop: () => Promise<void>;
}

export async function startCluster(options: ClusterOptions): Promise<RunningCluster> {
  const write = options.write ?? (() => {});
  const stack = new Stack(ROOT, (line) => write(`${'cluster'.padEnd(14)} | ${line}`), write);
  const config = loadConfig({ ...options.env, DATA_DIR: options.dataDir, PORT: String(options.port) });
  try {
    const launched = await launchStore(stack, {
      root: ROOT,
      config,
      dataDir: options.dataDir,
      env: options.env,
      topology: 'cluster',
    });
    const handle = (process: RoleProcess): ClusterInstance => ({
      label: process.label,
      role: process.name,
      pid: process.child.pid as number,
      kill: (signal) => process.child.kill(signal),
      replaced: async () => handle(await stack.replacement(process)),
    });
    return {
      url: launched.url,
      dataDir: options.dataDir,
      databaseUrl: launched.databaseUrl,
      redisUrl: launched.redisUrl,
      apiUrls: launched.apiUrls,
      instances: () => [...stack.roles.values()].map(handle),
      instance: (label) => {
        const process = stack.roles.get(label);
        if (!process) throw new Error(`no instance ${label} in this cluster`);
        return handle(process);
      },
      restartService: async (service) => {
        if (!stack.services) throw new Error('this cluster runs no local services');
        await stack.services.restart(service);
      },
      inRotation: async () => (await launched.balancer?.inRotation()) ?? [],
      served: async () => (await launched.balancer?.served()) ?? {},
      stop: () => stack.stop(),
    };
  } catch (error) {
    await stack.stop();
    throw error;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await runStoreCommand(ROOT, 'cluster', 'npm run start:cluster');
  // Anything still holding the event loop (a stuck socket) must not keep a stopped stack's terminal.
  setTimeout(() => process.exit(), 3000).unref();
}
