/**
 * Reactor recovery after Redis lost its data: how long until the reactor is live again, and how many jobs it adds,
 * against the first derivation of the whole log (what a recovery from the start of the log would redo), in the same run.
 *
 *   npm run bench:reactor-recovery
 *
 * The log is a whole store's history (catalogue, checkouts, orders, keys, e-mails, refunds) appended through the event
 * store's batch path. The reactor derives its jobs, workers that do nothing finish them all, the workers stop, the last
 * few appends of the history arrive (their jobs stay unfinished), then the bench deletes every key of its Redis prefix,
 * appends a probe event, and times until the probe's job is in Redis: the reactor has noticed the loss, added the
 * unfinished jobs again and gone on with the log.
 *
 * Without DATABASE_URL / REDIS_URL it starts an embedded Postgres and a redis-server in a temporary directory. Knobs:
 * BENCH_REACTOR_EVENTS (200,000), BENCH_REACTOR_UNFINISHED (the appends whose jobs stay unfinished, 20).
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Position } from '@licensestore/domain/events';
import { openDatabase } from '@licensestore/platform/db';
import { openEventStore } from '@licensestore/platform/eventstore';
import { silentLogger } from '@licensestore/platform/logging';
import { Redis } from 'ioredis';
import type pg from 'pg';
import { withBenchDatabase } from '../projections/bench/support/database.js';
import { storeLog } from '../projections/bench/support/store-log.js';
import { appendInBulk, type BulkAppend } from '../projections/test/support/catalogue.js';
import { testVault } from '../projections/test/support/license-keys.js';
import { startRedisServer } from '../scripts/stack/redis-server.js';
import { startWorkerHost } from '../workers/src/jobs/host.js';
import { FinishedJobs, recordProgress } from '../workers/src/jobs/intents.js';
import { JobQueues, redisConnection } from '../workers/src/jobs/queues.js';
import { migrateWorkers } from '../workers/src/migrations.js';
import { workerReactions } from '../workers/src/reactor/reactions.js';
import { type JobSink, jobIdFor, startReactor } from '../workers/src/reactor/reactor.js';
import { logHead } from './support/log-head.js';
import { format } from './support/stats.js';

const TARGET_MS = 10_000;
const PROBE_QUEUE = 'reactor-probe';
const REACTOR = 'workers';

export interface ReactorRecoveryOptions {
  /** A database whose event store holds the log; the workers' tables are added to it. */
  databaseUrl: string;
  redisUrl: string;
  /** Appends the events whose jobs are left unfinished: called once the workers have finished every earlier job. */
  appendUnfinished: (pool: pg.Pool) => Promise<void>;
  /**
   * The reactor handled the log before this run (its checkpoint and its mark at the log's head, every job finished),
   * as on a store that has been selling for a year: nothing is derived from the history, so the run's cost is the
   * recovery's alone.
   */
  handledBefore?: boolean;
  /** Progress lines; nothing by default. */
  log?: (line: string) => void;
}

export interface ReactorRecovery {
  /** Events in the log when Redis lost its data. */
  events: number;
  /** The first derivation of the whole log: jobs, and ms until the reactor had handled it all. */
  derivedJobs: number;
  deriveMs: number;
  /** Jobs no worker had finished when Redis lost its data. */
  unfinishedJobs: number;
  /** From the loss until the reactor handled the next event, having added the lost jobs again. */
  recoveryMs: number;
  /** Jobs added after the loss, the probe's left out. */
  jobsAdded: number;
  /** The jobs added after the loss were exactly the unfinished ones. */
  addedOnlyUnfinished: boolean;
}

/** A job sink that remembers the queues it saw and, once asked to, which jobs it added. */
function watchedSink(jobs: JobQueues) {
  const queues = new Set<string>();
  let added: Set<string> | null = null;
  let adds = 0;
  const sink: JobSink = {
    readMark: (reactor) => jobs.readMark(reactor),
    moveMark: (...move) => jobs.moveMark(...move),
    async add(request, jobId) {
      await jobs.add(request, jobId);
      queues.add(request.queue);
      adds += 1;
      added?.add(`${request.queue}:${jobId}`);
    },
  };
  return {
    sink,
    queues,
    adds: () => adds,
    /** From now on, remember which jobs are added. */
    watch: () => {
      added = new Set();
      return added;
    },
  };
}

/**
 * Deletes every key under `prefix` in one command, as a Redis that restarted without its data has none: deleting them
 * a scan page at a time would let the reactor's idle check see a half-emptied Redis and recover before the loss ends.
 */
async function forget(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl);
  try {
    const keys: string[] = [];
    for await (const page of redis.scanStream({ match: `${prefix}:*`, count: 10_000 }) as AsyncIterable<
      string[]
    >) {
      keys.push(...page);
    }
    if (keys.length > 0) await redis.unlink(...keys);
  } finally {
    await redis.quit();
  }
}

/**
 * What a reactor that has followed the log to `head` leaves once the workers have finished every job: its last batch
 * settled by its own steps (intents, none left, and checkpoint in Postgres; then its mark in Redis), so it starts
 * from the head with nothing to recover.
 */
async function settledAt(pool: pg.Pool, jobs: JobQueues, head: Position): Promise<void> {
  const session = await pool.connect();
  try {
    await recordProgress(session, REACTOR, head, []);
  } finally {
    session.release();
  }
  if (!(await jobs.moveMark(REACTOR, null, head, []))) throw new Error('the reactor mark was already set');
}

/** Measures one recovery on the log in `databaseUrl`; see the module's comment. */
export async function measureReactorRecovery(options: ReactorRecoveryOptions): Promise<ReactorRecovery> {
  const log = options.log ?? (() => {});
  const database = openDatabase(options.databaseUrl, { max: 4 });
  const eventStore = await openEventStore({ databaseUrl: options.databaseUrl });
  const prefix = `bench-${randomUUID().slice(0, 8)}`;
  const queues = redisConnection(options.redisUrl, prefix);
  const jobs = new JobQueues(queues);
  const watched = watchedSink(jobs);
  let reactor: ReturnType<typeof startReactor> | undefined;
  const lastPosition = async () => {
    const head = await logHead(database.pool);
    if (!head) throw new Error('the log is empty');
    return head;
  };
  try {
    await migrateWorkers(database.db);
    if (options.handledBefore) await settledAt(database.pool, jobs, await lastPosition());
    reactor = startReactor({
      name: REACTOR,
      databaseUrl: options.databaseUrl,
      eventStore,
      // Every captured checkout's repair job due at once, so the workers can finish the whole history.
      reactions: {
        ...workerReactions({ orderRepairDelayMs: 0 }),
        ReactorProbe: () => ({ queue: PROBE_QUEUE, name: 'probe', data: {} }),
      },
      jobs: watched.sink,
      logger: silentLogger,
    });
    const { rows: counted } = await database.pool.query<{ events: number }>(
      'SELECT count(*)::int AS events FROM event_store.events',
    );
    const events = counted[0]?.events ?? 0;

    const deriving = performance.now();
    await reactor.waitForPosition(await lastPosition());
    const deriveMs = performance.now() - deriving;
    const derivedJobs = watched.adds();
    log(
      `derived ${format(derivedJobs)} jobs from ${format(events)} events in ${format(deriveMs / 1000, 1)} s`,
    );

    // Workers that do nothing finish every job; they stop once no intent is left.
    const finishedJobs = new FinishedJobs(database.pool, silentLogger);
    const host = await startWorkerHost({
      processors: [...watched.queues].map((queue) => ({ queue, concurrency: 200, handle: async () => {} })),
      queues,
      logger: silentLogger,
      finishedJobs,
    });
    const draining = performance.now();
    for (;;) {
      await finishedJobs.flush();
      const { rows } = await database.pool.query<{ left: number }>(
        'SELECT count(*)::int AS left FROM reactor_job_intents',
      );
      if (rows[0]?.left === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await host.close();
    log(`workers finished them in ${format((performance.now() - draining) / 1000, 1)} s`);

    await options.appendUnfinished(database.pool);
    await reactor.waitForPosition(await lastPosition());
    const { rows: left } = await database.pool.query<{ job: string }>(
      `SELECT queue || ':' || job_id AS job FROM reactor_job_intents`,
    );
    const unfinished = new Set(left.map((row) => row.job));

    const added = watched.watch();
    await forget(options.redisUrl, prefix);
    const recovering = performance.now();
    const probe = randomUUID();
    const { position } = await eventStore.append(
      `reactorProbe-${probe}`,
      [
        {
          id: probe,
          type: 'ReactorProbe',
          data: {},
          metadata: { actor: { type: 'system', id: 'bench' }, correlationId: probe, causationId: probe },
        },
      ],
      'no_stream',
    );
    await reactor.waitForPosition(position);
    const recoveryMs = performance.now() - recovering;
    added.delete(`${PROBE_QUEUE}:${jobIdFor(probe, 'probe')}`);
    return {
      events: events + 1,
      derivedJobs,
      deriveMs,
      unfinishedJobs: unfinished.size,
      recoveryMs,
      jobsAdded: added.size,
      addedOnlyUnfinished: added.size === unfinished.size && [...added].every((job) => unfinished.has(job)),
    };
  } finally {
    await reactor?.stop();
    await forget(options.redisUrl, prefix);
    await Promise.all([jobs.close(), eventStore.close(), database.close()]);
  }
}

/** A Redis for the run: REDIS_URL's, or a redis-server in a temporary directory. */
async function withBenchRedis<T>(run: (url: string) => Promise<T>): Promise<T> {
  const given = process.env.REDIS_URL;
  if (given) return run(given);
  const dir = await mkdtemp(join(tmpdir(), 'licensestore-bench-redis-'));
  const redis = await startRedisServer(join(dir, 'redis'));
  try {
    return await run(redis.url);
  } finally {
    await redis.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

async function main() {
  const events = Number(process.env.BENCH_REACTOR_EVENTS ?? 200_000);
  const unfinishedAppends = Number(process.env.BENCH_REACTOR_UNFINISHED ?? 20);
  console.log(
    `reactor recovery bench: ${format(events)} events, the last ${unfinishedAppends} appends unfinished, ` +
      `${cpus().length} CPUs, Node ${process.version}`,
  );
  const history = [...storeLog({ events, products: 200, seed: 2026, vault: testVault() })];
  const tail: BulkAppend[] = history.splice(history.length - unfinishedAppends);
  const result = await withBenchDatabase((databaseUrl) =>
    withBenchRedis(async (redisUrl) => {
      const pool = openDatabase(databaseUrl, { max: 4 });
      try {
        await openEventStore({ databaseUrl }).then((store) => store.close());
        const seeding = performance.now();
        const appended = await appendInBulk(pool.pool, history);
        console.log(
          `appended ${format(appended)} events in ${format((performance.now() - seeding) / 1000, 1)} s`,
        );
      } finally {
        await pool.close();
      }
      return measureReactorRecovery({
        databaseUrl,
        redisUrl,
        appendUnfinished: (target) => appendInBulk(target, tail).then(() => {}),
        log: (line) => console.log(`  ${line}`),
      });
    }),
  );
  const met = result.recoveryMs < TARGET_MS && result.addedOnlyUnfinished;
  console.log(
    `reactor recovery: live again in ${format(result.recoveryMs)} ms (target < ${format(TARGET_MS)} ms), ` +
      `${format(result.jobsAdded)} jobs added for ${format(result.unfinishedJobs)} unfinished ` +
      `(${result.addedOnlyUnfinished ? 'exactly the unfinished' : 'NOT only the unfinished'}), ` +
      `against ${format(result.derivedJobs)} jobs in ${format(result.deriveMs)} ms to derive the whole log of ` +
      `${format(result.events)} events: ${format(result.recoveryMs / result.deriveMs, 4)} × its time, ` +
      `${format(result.jobsAdded / result.derivedJobs, 5)} × its jobs; ${cpus().length} CPUs; ${met ? 'met' : 'NOT met'}`,
  );
  if (!met) process.exitCode = 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
