import type { Logger } from '@licensestore/platform/logging';
import { UnrecoverableError, Worker } from 'bullmq';
import { z } from 'zod';

/** Where the api queues the back office's heavy jobs (verifications, what-ifs) for the projections role. */
export interface BackOfficeQueue {
  redisUrl: string;
  /** BullMQ's key prefix (`bull` when unset); an api with a Redis key prefix puts its own before `bull`. */
  prefix?: string | undefined;
}

/**
 * Takes one kind of the back office's jobs off its queue, one at a time, any instance of the role (a standby
 * included) taking the next. A job whose data does not read fails for good, unretried. Resolves once listening;
 * the returned function stops taking jobs and waits for the one under way. What `run` returns is the job's return
 * value, which the api waiting on the job answers with.
 */
export async function consumeBackOfficeJobs<Schema extends z.ZodType>(
  name: string,
  schema: Schema,
  queue: BackOfficeQueue,
  logger: Logger,
  run: (data: z.output<Schema>) => Promise<unknown>,
): Promise<() => Promise<void>> {
  const worker = new Worker(
    name,
    async (job) => {
      const parsed = schema.safeParse(job.data);
      if (!parsed.success) {
        throw new UnrecoverableError(`invalid data for ${name}: ${z.prettifyError(parsed.error)}`);
      }
      return run(parsed.data);
    },
    { connection: { url: queue.redisUrl }, prefix: queue.prefix, concurrency: 1 },
  );
  worker.on('failed', (job, error) => logger.warn({ queue: name, jobId: job?.id, err: error }, 'job failed'));
  worker.on('error', (error) => logger.error({ queue: name, err: error }, 'worker error'));
  await worker.waitUntilReady();
  return () => worker.close();
}
