import { loadConfig } from '@licensestore/platform/config';
import { openDatabase } from '@licensestore/platform/db';
import { jsonLogger } from '@licensestore/platform/logging';
import { abortedOnSignal, openConfiguredEventStore, runCli } from './cli-support.js';
import { migrateReadModel } from './migrations/index.js';
import { projectorsNamed } from './projectors.js';
import { rebuildProjectors } from './rebuild.js';

const USAGE = 'usage: npm run rebuild -- <projector|all>';

/** `rebuild <projector|all>`: rebuilds read models from the whole log and swaps them in; safe while the role runs. */
async function main(argv: string[]): Promise<number> {
  const [command, name] = argv;
  if (command !== 'rebuild' || !name) {
    console.error(USAGE);
    return 2;
  }
  const projectors = projectorsNamed(name);
  const config = loadConfig();
  const log = jsonLogger({ role: 'rebuild' }, config.LOG_LEVEL);
  const { databaseUrl, store } = await openConfiguredEventStore(config);
  const { db, pool, close } = openDatabase(databaseUrl, { max: 4 });
  const signal = abortedOnSignal();
  try {
    await migrateReadModel(db);
    // Several read models in one pass: the log is read once for them all.
    for (const result of await rebuildProjectors({ db, pool, store, projectors, log, signal })) {
      const perSecond = Math.round(result.events / Math.max(result.durationMs / 1000, 0.001));
      console.log(
        `${result.projector}: ${result.events} events in ${result.durationMs} ms (${perSecond} events/s)`,
      );
    }
    return 0;
  } finally {
    await store.close();
    await close();
  }
}

runCli(main, USAGE);
