import { randomUUID } from 'node:crypto';
import type { RecordedEvent } from '@licensestore/domain/events';
import { silentLogger } from '@licensestore/platform/logging';
import { parkedEventsPage } from '@licensestore/platform/parked-events';
import { UnrecoverableError } from 'bullmq';
import { Redis } from 'ioredis';
import { Kysely, PostgresDialect } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { conditionWaits } from '../../../test/support/condition-waits.js';
import { testRedisUrl } from '../../../test/support/database.js';
import { startWorkerHost } from '../jobs/host.js';
import { FinishedJobs } from '../jobs/intents.js';
import type { JobProcessor } from '../jobs/processor.js';
import type { JobQueues, JobRequest } from '../jobs/queues.js';
import { appendEvent, checkpointOf, testMetadata, workersTestEnvironment } from '../testing/fixtures.js';
import { workerReactions } from './reactions.js';
import {
  type JobSink,
  jobIdFor,
  type Reactions,
  type Reactor,
  type ReactorOptions,
  startReactor,
} from './reactor.js';

type Environment = Awaited<ReturnType<typeof workersTestEnvironment>>;

const QUEUE = 'deliveries';

/** Reactions that record which events they saw, so a test can tell where a reactor started reading. */
function recordingReactions() {
  const seen: string[] = [];
  const reactions: Reactions = {
    OrderPaid: (event) => {
      seen.push(event.id);
      return { queue: QUEUE, name: 'deliver', data: { order: (event.data as { orderId: string }).orderId } };
    },
    OrderNoted: () => null,
  };
  return { seen, reactions };
}

/** The test's queues as a job sink that counts the adds of each job id, so a test can wait for the n-th. */
function countingSink(jobs: JobQueues) {
  const adds = new Map<string, number>();
  const waits = conditionWaits();
  const addedIds: string[] = [];
  const sink: JobSink = {
    readMark: (reactor) => jobs.readMark(reactor),
    moveMark: (...move) => jobs.moveMark(...move),
    async add(request, jobId) {
      await jobs.add(request, jobId);
      addedIds.push(jobId);
      adds.set(jobId, (adds.get(jobId) ?? 0) + 1);
      waits.changed();
    },
  };
  const added = (jobId: string, times: number) =>
    waits.until(`${jobId} added ${times} times`, () => (adds.get(jobId) ?? 0) >= times, 10_000);
  return { sink, added, addedIds };
}

type Outcome = 'done' | 'retry' | 'fail';

/**
 * A consumer of the test's queue that does each job's side effect (counted per order) unless the job says otherwise:
 * 'retry' throws until `retriesSucceed`, 'fail' fails the job for good.
 */
function countingProcessor() {
  const effects = new Map<string, number>();
  const attempts = new Map<string, number>();
  const waits = conditionWaits();
  const state = { retriesSucceed: false };
  const processor: JobProcessor = {
    queue: QUEUE,
    concurrency: 4,
    async handle(job) {
      const { order, outcome } = job.data as { order: string; outcome: Outcome };
      attempts.set(order, (attempts.get(order) ?? 0) + 1);
      waits.changed();
      if (outcome === 'fail') throw new UnrecoverableError('refused for good');
      if (outcome === 'retry' && !state.retriesSucceed) throw new Error('try again later');
      effects.set(order, (effects.get(order) ?? 0) + 1);
      waits.changed();
    },
  };
  const until = (what: string, condition: () => boolean) => waits.until(what, condition, 20_000);
  return { processor, effects, attempts, state, until };
}

describe('Reactor', () => {
  let env: Environment;
  let name: string;
  const started: Reactor[] = [];

  const start = (overrides: Partial<ReactorOptions> = {}) => {
    const reactor = startReactor({
      name,
      databaseUrl: env.databaseUrl,
      eventStore: env.eventStore,
      reactions: recordingReactions().reactions,
      jobs: env.jobs,
      ...overrides,
    });
    started.push(reactor);
    return reactor;
  };
  const orderPaid = () => appendEvent(env.eventStore, 'OrderPaid', { orderId: randomUUID() });
  const orderOf = (event: RecordedEvent) => (event.data as { orderId: string }).orderId;
  const jobIds = async () => (await env.jobs.queue(QUEUE).getJobs()).map((job) => job.id).sort();
  const expectedIds = (...events: RecordedEvent[]) =>
    events.map((event) => jobIdFor(event.id, 'deliver')).sort();

  beforeEach(async () => {
    env = await workersTestEnvironment();
    name = `reactor-${randomUUID().slice(0, 8)}`;
  });

  afterEach(async () => {
    await Promise.all(started.splice(0).map((reactor) => reactor.stop()));
    await env.close();
  });

  describe('when an event with a reaction is recorded', () => {
    it('enqueues exactly one job whose id is derived from the event id and the job name', async () => {
      const reactor = start();
      const event = await orderPaid();
      await reactor.waitForPosition(event.position);

      const job = await env.jobs.queue(QUEUE).getJob(jobIdFor(event.id, 'deliver'));
      expect(job?.name).toBe('deliver');
      expect(job?.data).toEqual({ order: (event.data as { orderId: string }).orderId });
      expect(job?.opts.attempts).toBeGreaterThan(1);
      expect(job?.opts.backoff).toMatchObject({ type: 'exponential' });
      expect(await jobIds()).toEqual(expectedIds(event));
      expect(await checkpointOf(env.pool, name)).toBe(event.position);
    });

    it('enqueues nothing for events without a reaction, and still moves past them', async () => {
      const reactor = start();
      const noted = await appendEvent(env.eventStore, 'OrderNoted', {});
      const other = await appendEvent(env.eventStore, 'SomethingElse', {});
      await reactor.waitForPosition(other.position);
      expect(other.position > noted.position).toBe(true);
      expect(await jobIds()).toEqual([]);
      await reactor.stop();
      expect(await checkpointOf(env.pool, name)).toBe(other.position);
    });
  });

  describe('when the log holds an event that no longer reads', () => {
    it('parks it, logs it, and turns the events after it into jobs', async () => {
      const warnings: Array<{ fields: object; msg: string }> = [];
      const logger = {
        ...silentLogger,
        warn: (fields: object, msg: string) => warnings.push({ fields, msg }),
      };
      // A real reaction, which could only throw on this data: a delivery needs the order's id.
      const { OrderFulfilled } = workerReactions();
      const reactions: Reactions = {
        ...recordingReactions().reactions,
        ...(OrderFulfilled && { OrderFulfilled }),
      };
      const reactor = start({ reactions, logger });
      const orderId = randomUUID();
      const unreadable = await env.eventStore.append(
        `order-${orderId}`,
        [{ type: 'OrderFulfilled', data: { fulfilledAt: 'soon' }, metadata: testMetadata }],
        'no_stream',
      );
      const after = await orderPaid();
      await reactor.waitForPosition(after.position);

      expect(await jobIds()).toEqual(expectedIds(after));
      const { events: parked } = await parkedEventsPage(
        new Kysely({ dialect: new PostgresDialect({ pool: env.pool }) }),
      );
      expect(parked).toEqual([
        expect.objectContaining({
          position: unreadable.position,
          streamId: `order-${orderId}`,
          type: 'OrderFulfilled',
          consumers: [`reactor:${name}`],
          reason: expect.stringContaining('data.orderId'),
        }),
      ]);
      expect(warnings).toContainEqual({
        fields: expect.objectContaining({ position: unreadable.position }),
        msg: 'parked an event that does not read; moving past it',
      });
    });
  });

  describe('when restarted', () => {
    it('resumes from its checkpoint, and a replay from zero enqueues nothing twice', async () => {
      const first = recordingReactions();
      const one = await orderPaid();
      const reactorA = start({ reactions: first.reactions });
      await reactorA.waitForPosition(one.position);
      await reactorA.stop();
      expect(await checkpointOf(env.pool, name)).toBe(one.position);
      const firstJob = await env.jobs.queue(QUEUE).getJob(jobIdFor(one.id, 'deliver'));

      const two = await orderPaid();
      const second = recordingReactions();
      const reactorB = start({ reactions: second.reactions });
      await reactorB.waitForPosition(two.position);
      await reactorB.stop();
      expect(second.seen).toEqual([two.id]);
      expect(await jobIds()).toEqual(expectedIds(one, two));

      await env.pool.query('DELETE FROM reactor_checkpoints WHERE name = $1', [name]);
      const replay = recordingReactions();
      const reactorC = start({ reactions: replay.reactions });
      await reactorC.waitForPosition(two.position);
      expect(replay.seen).toEqual([one.id, two.id]);
      expect(await jobIds()).toEqual(expectedIds(one, two));
      const replayedJob = await env.jobs.queue(QUEUE).getJob(jobIdFor(one.id, 'deliver'));
      expect(replayedJob?.timestamp).toBe(firstJob?.timestamp);
    });

    it('after a failure between the enqueue and the mark, adds the same job again', async () => {
      const added: string[] = [];
      let failOnce = true;
      const reactor = start({
        jobs: {
          readMark: (reactor) => env.jobs.readMark(reactor),
          moveMark: (...move) => env.jobs.moveMark(...move),
          async add(request: JobRequest, jobId: string) {
            added.push(jobId);
            await env.jobs.add(request, jobId);
            if (failOnce) {
              failOnce = false;
              throw new Error('crashed after the enqueue');
            }
          },
        },
      });
      const event = await orderPaid();
      await reactor.waitForPosition(event.position);

      expect(added).toEqual([jobIdFor(event.id, 'deliver'), jobIdFor(event.id, 'deliver')]);
      expect(await jobIds()).toEqual(expectedIds(event));
      expect(await checkpointOf(env.pool, name)).toBe(event.position);
    });
  });

  describe('when Redis loses the jobs it was given', () => {
    /** What a Redis restarted without its data looks like to this test's queues. */
    const forgetAllJobs = async () => {
      const redis = new Redis(testRedisUrl());
      try {
        const keys = await redis.keys(`${env.queues.prefix}:*`);
        if (keys.length > 0) await redis.del(...keys);
      } finally {
        await redis.quit();
      }
    };

    it('adds them again when the next enqueue finds its mark gone', async () => {
      const reactor = start();
      const one = await orderPaid();
      await reactor.waitForPosition(one.position);
      await forgetAllJobs();

      const two = await orderPaid();
      await reactor.waitForPosition(two.position);
      expect(await jobIds()).toEqual(expectedIds(one, two));
      expect(await env.jobs.readMark(name)).toBe(two.position);
    });

    it('adds again only the jobs that had not finished: waiting, delayed, retrying and failed, none of the done', async () => {
      const reactions: Reactions = {
        OrderPaid: (event) => {
          const { orderId, outcome, delayMs } = event.data as {
            orderId: string;
            outcome: Outcome;
            delayMs?: number;
          };
          return { queue: QUEUE, name: 'deliver', data: { order: orderId, outcome }, delayMs };
        },
      };
      const paid = (outcome: Outcome, delayMs?: number) =>
        appendEvent(env.eventStore, 'OrderPaid', { orderId: randomUUID(), outcome, delayMs });
      const consumer = countingProcessor();
      const finishedJobs = new FinishedJobs(env.pool, silentLogger);
      const host = await startWorkerHost({
        processors: [consumer.processor],
        queues: env.queues,
        logger: silentLogger,
        finishedJobs,
      });
      const first = start({ reactions });

      const done = await Promise.all(Array.from({ length: 20 }, () => paid('done')));
      const retrying = await paid('retry');
      const failed = await paid('fail');
      const delayed = await paid('done', 60_000);
      await first.waitForPosition(delayed.position);
      await consumer.until('20 jobs done', () => consumer.effects.size === 20);
      await consumer.until('the retrying and the failing job tried', () =>
        [retrying, failed].every((event) => consumer.attempts.has(orderOf(event))),
      );
      await host.close();
      await first.stop();

      const unfinished = expectedIds(retrying, failed, delayed);
      const intents = await env.pool.query<{ job_id: string }>('SELECT job_id FROM reactor_job_intents');
      expect(intents.rows.map((row) => row.job_id).sort()).toEqual(unfinished);
      await forgetAllJobs();

      const counting = countingSink(env.jobs);
      const second = start({ reactions, jobs: counting.sink });
      await second.waitForPosition(delayed.position);
      expect(counting.addedIds.sort()).toEqual(unfinished);
      expect(await jobIds()).toEqual(unfinished);
      const delayedJob = await env.jobs.queue(QUEUE).getJob(jobIdFor(delayed.id, 'deliver'));
      expect(await delayedJob?.getState()).toBe('delayed');
      // The delay goes on from where it was, not from the restart.
      expect(delayedJob?.opts.delay).toBeGreaterThan(0);
      expect(delayedJob?.opts.delay).toBeLessThanOrEqual(60_000);

      consumer.state.retriesSucceed = true;
      const again = await startWorkerHost({
        processors: [consumer.processor],
        queues: env.queues,
        logger: silentLogger,
        finishedJobs,
      });
      try {
        await consumer.until('the retried job done', () => consumer.effects.has(orderOf(retrying)));
      } finally {
        await again.close();
      }
      expect([...consumer.effects.values()].every((count) => count === 1)).toBe(true);
      expect([...consumer.effects.keys()].sort()).toEqual([...done, retrying].map(orderOf).sort());
      const left = await env.pool.query<{ job_id: string }>('SELECT job_id FROM reactor_job_intents');
      expect(left.rows.map((row) => row.job_id).sort()).toEqual(expectedIds(failed, delayed));
    });

    it('notices while no events arrive, and adds the lost jobs again', async () => {
      const counting = countingSink(env.jobs);
      const reactor = start({ jobs: counting.sink, markCheckIntervalMs: 50 });
      const one = await orderPaid();
      await reactor.waitForPosition(one.position);
      await forgetAllJobs();

      await counting.added(jobIdFor(one.id, 'deliver'), 2);
      expect(await jobIds()).toEqual(expectedIds(one));
    });
  });

  describe('with two instances', () => {
    const activeAndStandby = async (a: Reactor, b: Reactor) => {
      await Promise.race([a.waitForState('active'), b.waitForState('active')]);
      const [active, standby] = a.state() === 'active' ? [a, b] : [b, a];
      await standby.waitForState('standby');
      return { active, standby };
    };

    it('runs one active; the standby takes over from the checkpoint when the active one stops', async () => {
      const reactionsA = recordingReactions();
      const reactionsB = recordingReactions();
      const a = start({ reactions: reactionsA.reactions });
      const b = start({ reactions: reactionsB.reactions });
      const { active, standby } = await activeAndStandby(a, b);
      const standbySeen = standby === a ? reactionsA.seen : reactionsB.seen;

      const one = await orderPaid();
      await active.waitForPosition(one.position);
      expect(standby.state()).toBe('standby');
      expect(standbySeen).toEqual([]);

      await active.stop();
      await standby.waitForState('active');
      const two = await orderPaid();
      await standby.waitForPosition(two.position);

      expect(standbySeen).toEqual([two.id]);
      expect(await jobIds()).toEqual(expectedIds(one, two));
    });

    it('hands over when the active instance loses its database session', async () => {
      const a = start();
      const b = start();
      const { active, standby } = await activeAndStandby(a, b);

      await env.pool.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE application_name = $1 AND pid IN (SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted)`,
        [`reactor:${name}`],
      );
      await standby.waitForState('active');
      await active.waitForState('standby');

      const event = await orderPaid();
      await standby.waitForPosition(event.position);
      expect(await jobIds()).toEqual(expectedIds(event));
    });

    it('stops a standby without waiting for the lock', async () => {
      const a = start();
      const b = start();
      const { active, standby } = await activeAndStandby(a, b);
      await standby.stop();
      expect(standby.state()).toBe('stopped');
      expect(active.state()).toBe('active');
    });
  });
});

describe('jobIdFor', () => {
  it('is deterministic and free of colons', () => {
    const eventId = randomUUID();
    expect(jobIdFor(eventId, 'send-delivery-email')).toBe(jobIdFor(eventId, 'send-delivery-email'));
    expect(jobIdFor(eventId, 'assign-keys')).not.toBe(jobIdFor(eventId, 'send-delivery-email'));
    expect(jobIdFor(eventId, 'assign-keys')).not.toContain(':');
  });

  it('refuses a job name that BullMQ could not use in an id', () => {
    expect(() => jobIdFor(randomUUID(), 'assign:keys')).toThrow();
    expect(() => jobIdFor(randomUUID(), '')).toThrow();
  });
});
