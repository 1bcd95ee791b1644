import { randomUUID } from 'node:crypto';
import { silentLogger } from '@licensestore/platform/logging';
import { type Job, QueueEvents } from 'bullmq';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { workersTestEnvironment } from '../testing/fixtures.js';
import { latch } from '../testing/latch.js';
import { startWorkerHost, type WorkerHost } from './host.js';
import { FinishedJobs } from './intents.js';
import { defineProcessor, type JobProcessor } from './processor.js';

type Environment = Awaited<ReturnType<typeof workersTestEnvironment>>;

const QUEUE = 'greetings';
const greeting = z.object({ to: z.string().min(1) });

describe('Worker host', () => {
  let env: Environment;
  let events: QueueEvents;
  const hosts: WorkerHost[] = [];

  const startHost = async (...processors: JobProcessor[]) => {
    const host = await startWorkerHost({
      processors,
      queues: env.queues,
      logger: silentLogger,
      finishedJobs: new FinishedJobs(env.pool, silentLogger),
    });
    hosts.push(host);
    return host;
  };
  const enqueue = async (data: unknown) => {
    const jobId = `greet.${randomUUID()}`;
    await env.jobs.add({ queue: QUEUE, name: 'greet', data }, jobId);
    const job = await env.jobs.queue(QUEUE).getJob(jobId);
    if (!job) throw new Error(`job ${jobId} was not added`);
    return job;
  };

  beforeEach(async () => {
    env = await workersTestEnvironment();
    events = new QueueEvents(QUEUE, { connection: env.queues.connection, prefix: env.queues.prefix });
    await events.waitUntilReady();
  });

  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((host) => host.close()));
    await events.close();
    await env.close();
  });

  describe('when a job arrives', () => {
    it('runs the processor of its queue with the validated data', async () => {
      const received: unknown[] = [];
      await startHost(
        defineProcessor({
          queue: QUEUE,
          schema: greeting,
          process: async (data) => {
            received.push(data);
            return `hello ${data.to}`;
          },
        }),
      );
      const job = await enqueue({ to: 'Ada' });
      await expect(job.waitUntilFinished(events)).resolves.toBe('hello Ada');
      expect(received).toEqual([{ to: 'Ada' }]);
    });

    it('fails a job whose data does not parse, without retrying it', async () => {
      let calls = 0;
      await startHost(
        defineProcessor({
          queue: QUEUE,
          schema: greeting,
          process: async () => {
            calls += 1;
          },
        }),
      );
      const job = await enqueue({ to: 42 });
      await expect(job.waitUntilFinished(events)).rejects.toThrow(/invalid data for greetings\/greet/);
      const failed = await env.jobs.queue(QUEUE).getJob(job.id as string);
      expect(failed?.attemptsMade).toBe(1);
      expect(await failed?.getState()).toBe('failed');
      expect(calls).toBe(0);
    });

    it('retries a job that throws, with backoff', async () => {
      const attempts: number[] = [];
      await startHost(
        defineProcessor({
          queue: QUEUE,
          schema: greeting,
          process: async (_data, job) => {
            attempts.push(Date.now());
            if (job.attemptsMade === 0) throw new Error('mail server busy');
            return 'sent';
          },
        }),
      );
      const job = await enqueue({ to: 'Grace' });
      await expect(job.waitUntilFinished(events)).resolves.toBe('sent');
      expect(attempts).toHaveLength(2);
      expect((attempts[1] as number) - (attempts[0] as number)).toBeGreaterThanOrEqual(900);
    });
  });

  describe('when closed', () => {
    it('waits for the active job to finish', async () => {
      const order: string[] = [];
      const { open: started, opened: jobStarted } = latch();
      const { open: release, opened: released } = latch();
      const host = await startHost(
        defineProcessor({
          queue: QUEUE,
          schema: greeting,
          process: async () => {
            started();
            await released;
            order.push('job finished');
            return 'done';
          },
        }),
      );
      const job: Job = await enqueue({ to: 'Linus' });
      await jobStarted;

      const closing = host.close().then(() => order.push('host closed'));
      // Let the close reach Redis before the job may finish.
      await env.jobs.queue(QUEUE).getJobCounts();
      await env.jobs.queue(QUEUE).getJobCounts();
      expect(order).toEqual([]);
      release();
      await closing;

      expect(order).toEqual(['job finished', 'host closed']);
      expect(await (await env.jobs.queue(QUEUE).getJob(job.id as string))?.getState()).toBe('completed');
    });
  });

  it('refuses two processors for one queue', async () => {
    const processor = defineProcessor({ queue: QUEUE, schema: greeting, process: async () => {} });
    await expect(startHost(processor, processor)).rejects.toThrow(/two processors/);
  });
});
