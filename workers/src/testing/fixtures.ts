import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { EventStore, RecordedEvent } from '@licensestore/domain/events';
import { openEventStore } from '@licensestore/platform/eventstore';
import { createKeyVault } from '@licensestore/platform/key-vault';
import { silentLogger } from '@licensestore/platform/logging';
import { createOrderAccess } from '@licensestore/platform/order-access';
import { Worker } from 'bullmq';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { createTestDatabase, testRedisUrl } from '../../../test/support/database.js';
import { startTestSmtpServer } from '../../../test/support/smtp-server.js';
import type { JobProcessor } from '../jobs/processor.js';
import { JobQueues, type JobRequest, type QueueConnection, redisConnection } from '../jobs/queues.js';
import { type RunningWorkers, startWorkers, type WorkersOptions } from '../main.js';
import { migrateWorkers } from '../migrations.js';
import type { SideEffectSettings } from '../processors/context.js';
import type { KillPoint } from './killable-workers.js';
import { watchLog } from './store.js';

/** A fresh database with the workers' tables and the Postgres event store, and a private Redis key prefix. */
export async function workersTestEnvironment() {
  const databaseUrl = await createTestDatabase();
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  await migrateWorkers(new Kysely({ dialect: new PostgresDialect({ pool }) }));
  const eventStore = await openEventStore({ databaseUrl });
  const queues: QueueConnection = redisConnection(testRedisUrl(), `test-${randomUUID()}`);
  const jobs = new JobQueues(queues);
  return {
    databaseUrl,
    pool,
    eventStore,
    queues,
    jobs,
    async close() {
      await jobs.close();
      await eventStore.close();
      await pool.end();
    },
  };
}

/** The metadata of the events a test appends. */
export const testMetadata = {
  actor: { type: 'system', id: 'test' },
  correlationId: 'test',
  causationId: 'test',
} as const;

/** Appends one event to a new stream and returns it as the log recorded it. */
export async function appendEvent(
  eventStore: EventStore,
  type: string,
  data: unknown,
): Promise<RecordedEvent> {
  const stream = `test-${randomUUID()}`;
  await eventStore.append(stream, [{ id: randomUUID(), type, data, metadata: testMetadata }], 'no_stream');
  for await (const event of eventStore.readStream(stream)) return event;
  throw new Error(`event not found in ${stream}`);
}

export async function checkpointOf(pool: pg.Pool, name: string): Promise<string | null> {
  const { rows } = await pool.query<{ position: string | null }>(
    'SELECT position FROM reactor_checkpoints WHERE name = $1',
    [name],
  );
  return rows[0]?.position ?? null;
}

/**
 * Side-effect settings for a test: a fresh key vault, mail written into a fresh directory, no low-stock alerts, and
 * a second for the api to place a captured checkout's order before the workers look (so a store drains its queues
 * soon after its purchases).
 */
export function testSideEffects(overrides: Partial<SideEffectSettings> = {}): SideEffectSettings {
  const secret = randomBytes(32).toString('hex');
  return {
    keyVault: createKeyVault(secret),
    orderAccess: createOrderAccess(secret),
    lowStockThreshold: 0,
    publicUrl: 'https://store.test',
    mail: {
      from: 'LicenseStore <no-reply@store.test>',
      dataDir: join(tmpdir(), `workers-test-${randomUUID()}`),
    },
    orderRepairDelayMs: 1000,
    ...overrides,
  };
}

/**
 * Runs one job through a processor as a worker would (BullMQ's manual processing: the job taken from the queue under
 * a lock, then completed, or failed into its backoff and promoted at once): what a retry of it (same `jobId`, with
 * what earlier attempts noted in it) or a second delivery of it does. The queue must hold no other waiting job.
 */
export async function runJob(
  env: { queues: QueueConnection; jobs: JobQueues },
  processor: JobProcessor,
  request: JobRequest,
  jobId: string = randomUUID(),
) {
  await env.jobs.add(request, jobId);
  const worker = new Worker(request.queue, null, { ...env.queues, autorun: false });
  const token = randomUUID();
  try {
    const job = await worker.getNextJob(token);
    if (job?.id !== jobId) throw new Error(`expected job ${jobId} from ${request.queue}, got ${job?.id}`);
    try {
      const result = await processor.handle(job, token);
      await job.moveToCompleted(result, token, false);
      return result;
    } catch (error) {
      await job.moveToFailed(error as Error, token, false);
      if (await job.isDelayed()) await job.promote();
      throw error;
    }
  } finally {
    await worker.close();
  }
}

/**
 * What a test of the side effects end to end needs, fresh for each test: a test environment, a real SMTP server
 * (closed until the test opens it), a watch on the whole log, and the workers instances started through it. close()
 * stops those instances first, then the rest.
 */
export async function openWorkersFixture() {
  const env = await workersTestEnvironment();
  const smtp = await startTestSmtpServer();
  const log = watchLog(env.eventStore);
  const running: RunningWorkers[] = [];
  const stopWorkers = () => Promise.all(running.splice(0).map((workers) => workers.stop()));
  return {
    env,
    smtp,
    log,
    /** A workers instance on this environment's database and Redis prefix, logging nothing. */
    async startWorkers(sideEffects: SideEffectSettings, overrides: Partial<WorkersOptions> = {}) {
      const workers = await startWorkers({
        databaseUrl: env.databaseUrl,
        redisUrl: testRedisUrl(),
        queuePrefix: env.queues.prefix,
        logger: silentLogger,
        sideEffects,
        ...overrides,
      });
      running.push(workers);
      return workers;
    },
    /** Stops every instance started so far (stopping one twice costs nothing). */
    stopWorkers,
    async close() {
      await stopWorkers();
      await log.close();
      await smtp.close();
      await env.close();
    },
  };
}

export type WorkersFixture = Awaited<ReturnType<typeof openWorkersFixture>>;

const KILLABLE_WORKERS = fileURLToPath(new URL('./killable-workers.ts', import.meta.url));

/**
 * A workers process on the environment's database and Redis prefix that kills itself with SIGKILL at `killAt`
 * (testing/killable-workers.ts); resolves once it runs, with its exit (code, signal) to come. `kill` ends it if it
 * is still alive, for a test's clean-up.
 */
export async function startKillableWorkers(
  env: { databaseUrl: string; queues: QueueConnection },
  killAt: KillPoint,
  keySecret: string,
  sideEffects: Pick<SideEffectSettings, 'publicUrl' | 'mail'>,
) {
  const worker = spawn(process.execPath, ['--import', 'tsx', KILLABLE_WORKERS], {
    env: {
      ...process.env,
      KILLABLE_WORKERS: JSON.stringify({
        killAt,
        databaseUrl: env.databaseUrl,
        redisUrl: testRedisUrl(),
        queuePrefix: env.queues.prefix ?? '',
        keySecret,
        publicUrl: sideEffects.publicUrl,
        mail: sideEffects.mail,
      }),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const died = once(worker, 'exit');
  const [line] = await once(createInterface({ input: worker.stdout }), 'line');
  if (line !== 'ready') {
    worker.kill('SIGKILL');
    throw new Error(`the killable workers process said '${line}', not 'ready'`);
  }
  return { died, kill: () => worker.kill('SIGKILL') };
}

export type KillableWorkers = Awaited<ReturnType<typeof startKillableWorkers>>;
