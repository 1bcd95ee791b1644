import { parseArgs } from 'node:util';
import type { VerifyProgress } from '@licensestore/domain/audit-verify';
import { loadConfig } from '@licensestore/platform/config';
import { openDatabase } from '@licensestore/platform/db';
import { jsonLogger } from '@licensestore/platform/logging';
import { abortedOnSignal, openConfiguredEventStore, runCli, UsageError } from '../cli-support.js';
import { migrateReadModel } from '../migrations/index.js';
import { projectorsNamed } from '../projectors.js';
import { reportText } from './report-text.js';
import { verifyReadModels } from './verify.js';

const USAGE = 'usage: npm run audit:verify [-- --projector NAME]';
/** A progress line per this many events replayed. */
const PROGRESS_EVERY = 100_000;

function progressPrinter(projectors: string) {
  let printed = 0;
  return (progress: VerifyProgress) => {
    if (progress.phase !== 'replaying') return;
    if (progress.done > 0 && progress.done - printed < PROGRESS_EVERY) return;
    printed = progress.done;
    const of = progress.total ? ` of about ${progress.total.toLocaleString('en-US')}` : '';
    console.log(`replayed ${progress.done.toLocaleString('en-US')}${of} events into ${projectors}`);
  };
}

/**
 * `audit:verify`: replays the whole log into shadow tables and compares them with the live read models.
 * Exit 0 when they match, 1 when any row differs (or the check cannot be made), 2 on bad usage.
 */
async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { projector: { type: 'string' } }, strict: true });
  let projectors: ReturnType<typeof projectorsNamed>;
  try {
    projectors = projectorsNamed(values.projector ?? 'all');
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const config = loadConfig();
  const log = jsonLogger({ role: 'audit-verify' }, config.LOG_LEVEL);
  const { databaseUrl, store } = await openConfiguredEventStore(config);
  // A connection per projector (the replay writes them side by side), one for the lock, one spare.
  const { db, pool, close } = openDatabase(databaseUrl, { max: projectors.length + 2 });
  const signal = abortedOnSignal();
  try {
    await migrateReadModel(db);
    const names = projectors.map((projector) => projector.name).join(', ');
    console.log(`verifying ${names} against the event log`);
    const report = await verifyReadModels({
      db,
      pool,
      store,
      log,
      projectors,
      signal,
      onProgress: progressPrinter(names),
    });
    console.log(reportText(report));
    return report.passed ? 0 : 1;
  } finally {
    await store.close();
    await close();
  }
}

runCli(main, USAGE);
