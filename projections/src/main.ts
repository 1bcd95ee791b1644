import { pathToFileURL } from 'node:url';
import { backoffDelay } from '@licensestore/domain/backoff';
import type { EventStore } from '@licensestore/domain/events';
import { ConfigError, loadConfig, requireUrl, simulatedPaymentsWarning } from '@licensestore/platform/config';
import { openDatabase } from '@licensestore/platform/db';
import { openEventStore } from '@licensestore/platform/eventstore';
import { takeLeaderLock } from '@licensestore/platform/leader-lock';
import { jsonLogger, type Logger } from '@licensestore/platform/logging';
import pg from 'pg';
import { consumeVerifications } from './audit/verify-job.js';
import type { BackOfficeQueue } from './back-office-jobs.js';
import { abortableDelay } from './delay.js';
import { migrateReadModel } from './migrations/index.js';
import type { Projector } from './projector.js';
import { allProjectors } from './projectors.js';
import { consumeWhatIfs } from './risk/what-if.js';
import { type BatchApplied, runProjectors } from './runner.js';

/** One active projections instance per database; the others wait on this lock as hot standbys. */
const ACTIVE_LOCK = 'licensestore:projections';
const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 30_000;

export interface ProjectionsOptions {
  databaseUrl: string;
  /** Defaults to the store `openEventStore` picks (closed on stop); a given store is the caller's to close. */
  eventStore?: EventStore;
  eventStoreConnectionString?: string | undefined;
  logger?: Logger;
  projectors?: readonly Projector[];
  /** Most events per transaction while catching up. */
  maxBatch?: number | undefined;
  onBatch?: (batch: BatchApplied) => void;
  /** The queue of the back office's verifications and what-ifs; unset, this instance takes none. */
  backOfficeJobs?: BackOfficeQueue;
}

/**
 * The `projections` role: migrates the read schema, then waits for the active lock (`pg_advisory_lock` on a
 * connection of its own, so a standby takes over as soon as the holder's connection dies) and runs every
 * projector while it holds it; active or standing by, it takes the back office's verifications and what-ifs.
 * Resolves once started; the returned function stops cleanly: no new job starts and the ones under way finish,
 * subscriptions end, the batch being written commits, the lock is released.
 */
export async function startProjections(options: ProjectionsOptions): Promise<() => Promise<void>> {
  const log = options.logger ?? jsonLogger({ role: 'projections' });
  const projectors = options.projectors ?? allProjectors;
  const database = openDatabase(options.databaseUrl, { max: 2 + 2 * projectors.length });
  let store: EventStore | undefined = options.eventStore;
  try {
    await migrateReadModel(database.db);
    store ??= await openEventStore({
      databaseUrl: options.databaseUrl,
      eventStoreConnectionString: options.eventStoreConnectionString,
    });
  } catch (error) {
    await database.close();
    throw error;
  }
  const stopJobs: Array<() => Promise<void>> = [];
  if (options.backOfficeJobs) {
    try {
      const deps = { databaseUrl: options.databaseUrl, eventStore: store, logger: log };
      stopJobs.push(await consumeVerifications(options.backOfficeJobs, deps));
      stopJobs.push(await consumeWhatIfs(options.backOfficeJobs, deps));
    } catch (error) {
      await Promise.all(stopJobs.map((stop) => stop()));
      await database.close();
      if (!options.eventStore) await store.close();
      throw error;
    }
  }
  const stopping = new AbortController();
  const running = leadLoop({
    ...options,
    store,
    projectors,
    log,
    db: database.db,
    pool: database.pool,
    stopping: stopping.signal,
  });
  let stopped: Promise<void> | undefined;
  return () => {
    stopped ??= (async () => {
      stopping.abort();
      await Promise.all([running, ...stopJobs.map((stop) => stop())]);
      await database.close();
      if (!options.eventStore) await store.close();
    })();
    return stopped;
  };
}

interface LeadOptions extends ProjectionsOptions {
  store: EventStore;
  projectors: readonly Projector[];
  log: Logger;
  db: ReturnType<typeof openDatabase>['db'];
  pool: pg.Pool;
  stopping: AbortSignal;
}

async function leadLoop(options: LeadOptions): Promise<void> {
  const { log, stopping } = options;
  let failures = 0;
  while (!stopping.aborted) {
    const lock = new pg.Client({
      connectionString: options.databaseUrl,
      keepAlive: true,
      application_name: 'licensestore-projections-lock',
    });
    const lost = new AbortController();
    lock.on('error', () => lost.abort());
    lock.on('end', () => lost.abort());
    try {
      await lock.connect();
      const held = await takeLeaderLock(lock, ACTIVE_LOCK, {
        databaseUrl: options.databaseUrl,
        stopping,
        onStandby: () => log.info({}, 'standing by'),
        logger: log,
      });
      if (!held) break;
      failures = 0;
      log.info({ projectors: options.projectors.map((projector) => projector.name) }, 'active');
      await runProjectors({ ...options, signal: AbortSignal.any([stopping, lost.signal]) });
      if (!stopping.aborted) log.warn({}, 'lost the active lock (its connection ended)');
    } catch (error) {
      if (stopping.aborted) break;
      failures++;
      const retryInMs = backoffDelay(failures, { firstMs: RETRY_MIN_MS, maxMs: RETRY_MAX_MS });
      log.error({ err: error, retryInMs }, 'projections could not take the active lock; retrying');
      await abortableDelay(retryInMs, stopping);
    } finally {
      // Ending the session releases the lock.
      await lock.end().catch(() => {});
    }
  }
}

async function main() {
  const config = loadConfig();
  const logger = jsonLogger({ role: 'projections' }, config.LOG_LEVEL);
  const warning = simulatedPaymentsWarning(config);
  if (warning) logger.warn({}, warning);
  const maxBatch = process.env.PROJECTIONS_MAX_BATCH ? Number(process.env.PROJECTIONS_MAX_BATCH) : undefined;
  const stop = await startProjections({
    databaseUrl: requireUrl(config, 'DATABASE_URL'),
    eventStoreConnectionString: config.EVENTSTORE_CONNECTION_STRING,
    logger,
    maxBatch,
    backOfficeJobs: { redisUrl: requireUrl(config, 'REDIS_URL') },
  });
  const shutdown = (signal: NodeJS.Signals) => {
    logger.info({ signal }, 'stopping');
    stop().then(
      () => {
        logger.info({}, 'stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'stopping failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    // An invalid configuration prints the list of bad keys, not a stack.
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  });
}
