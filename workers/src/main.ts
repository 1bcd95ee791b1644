import { pathToFileURL } from 'node:url';
import {
  loadConfig,
  publicUrl,
  requireLicenseKeySecret,
  requireUrl,
  simulatedPaymentsWarning,
} from '@licensestore/platform/config';
import { openDatabase } from '@licensestore/platform/db';
import { openEventStore } from '@licensestore/platform/eventstore';
import { createKeyVault } from '@licensestore/platform/key-vault';
import { jsonLogger, type Logger } from '@licensestore/platform/logging';
import { createOrderAccess } from '@licensestore/platform/order-access';
import { startWorkerHost } from './jobs/host.js';
import { FinishedJobs } from './jobs/intents.js';
import type { JobProcessor } from './jobs/processor.js';
import { JobQueues, redisConnection } from './jobs/queues.js';
import { registeredProcessors } from './jobs/registry.js';
import { migrateWorkers } from './migrations.js';
import {
  createProcessorContext,
  type ProcessorContext,
  type SideEffectSettings,
} from './processors/context.js';
import { workerReactions } from './reactor/reactions.js';
import { type Reactions, startReactor } from './reactor/reactor.js';

export interface WorkersOptions {
  databaseUrl: string;
  redisUrl: string;
  /** EventStoreDB; unset means the Postgres event store in `databaseUrl`. */
  eventStoreConnectionString?: string | undefined;
  logger?: Logger;
  /** Configuration and secrets the side effects need (key vault, mail, links, low-stock alert). */
  sideEffects: SideEffectSettings;
  /** Defaults to the registries; tests pass their own. */
  reactions?: Reactions;
  processors?: (context: ProcessorContext) => readonly JobProcessor[];
  /** BullMQ key prefix (default `bull`). */
  queuePrefix?: string;
}

export interface RunningWorkers {
  /** Stops the reactor, then waits for active jobs to finish, then closes every connection. */
  stop(): Promise<void>;
}

/** The workers role: the reactor (one active per deployment) and the job consumers (any number of instances). */
export async function startWorkers(options: WorkersOptions): Promise<RunningWorkers> {
  const logger = options.logger ?? jsonLogger({ role: 'workers' });
  // One connection migrates, then crosses out finished jobs' intents.
  const database = openDatabase(options.databaseUrl, { max: 1 });
  try {
    await migrateWorkers(database.db);
  } catch (error) {
    await database.close();
    throw error;
  }

  const eventStore = await openEventStore(options);
  const context = createProcessorContext(options.sideEffects, eventStore, logger);
  const queues = redisConnection(options.redisUrl, options.queuePrefix);
  const jobs = new JobQueues(queues);
  const reactor = startReactor({
    name: 'workers',
    databaseUrl: options.databaseUrl,
    eventStore,
    reactions: options.reactions ?? workerReactions(options.sideEffects),
    jobs,
    logger,
  });
  const host = await startWorkerHost({
    processors: (options.processors ?? registeredProcessors)(context),
    queues,
    logger,
    finishedJobs: new FinishedJobs(database.pool, logger),
  }).catch(async (error: unknown) => {
    await reactor.stop();
    context.mailer.close();
    await Promise.allSettled([jobs.close(), eventStore.close(), database.close()]);
    throw error;
  });
  logger.info({}, 'workers role started');

  let stopped: Promise<void> | null = null;
  return {
    stop: () => {
      stopped ??= (async () => {
        await reactor.stop();
        await host.close();
        context.mailer.close();
        await Promise.all([jobs.close(), eventStore.close(), database.close()]);
        logger.info({}, 'workers role stopped');
      })();
      return stopped;
    },
  };
}

async function main() {
  const config = loadConfig();
  const log = jsonLogger({ role: 'workers' }, config.LOG_LEVEL);
  const warning = simulatedPaymentsWarning(config);
  if (warning) log.warn({}, warning);
  let workers: RunningWorkers | null = null;
  let stopping = false;
  const stopAndExit = (running: RunningWorkers) =>
    running.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  // Registered before starting, and kept after the first signal: a signal during start-up or a second one
  // during shutdown must not kill the process while jobs are finishing.
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    if (workers) void stopAndExit(workers);
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);

  workers = await startWorkers({
    databaseUrl: requireUrl(config, 'DATABASE_URL'),
    redisUrl: requireUrl(config, 'REDIS_URL'),
    eventStoreConnectionString: config.EVENTSTORE_CONNECTION_STRING,
    logger: log,
    sideEffects: {
      keyVault: createKeyVault(requireLicenseKeySecret(config)),
      orderAccess: createOrderAccess(requireLicenseKeySecret(config)),
      lowStockThreshold: config.LOW_STOCK_THRESHOLD,
      adminEmail: config.ADMIN_EMAIL,
      publicUrl: publicUrl(config),
      mail: { smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, dataDir: config.DATA_DIR },
    },
  });
  if (stopping) await stopAndExit(workers);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
