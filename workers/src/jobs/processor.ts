import { AppError } from '@licensestore/domain';
import { type Job, UnrecoverableError } from 'bullmq';
import { z } from 'zod';

/** One queue's consumer, with its job data already validated. */
export interface JobProcessor {
  queue: string;
  concurrency: number;
  /** `token` is the worker's lock on the job (see `stillOurs`). */
  handle(job: Job, token: string): Promise<unknown>;
}

export interface ProcessorDefinition<T> {
  queue: string;
  /** Job data is validated at the boundary; data that does not parse fails the job without retries. */
  schema: z.ZodType<T>;
  concurrency?: number;
  /**
   * Throw only for "retry later": the job is retried with backoff. A domain refusal (AppError) will not change on
   * retry, so it fails the job for good.
   */
  process(data: T, job: Job, token: string): Promise<unknown>;
}

/**
 * Makes sure, right before a side effect that cannot be taken back (an e-mail), that the job is still this worker's,
 * and keeps it so for `ms`. A worker whose event loop stalled past its lock has had the job moved back to the queue,
 * where another may be running it already; the stalled one must then stop rather than do it a second time.
 */
export async function stillOurs(job: Job, token: string, ms: number): Promise<void> {
  if ((await job.extendLock(token, ms)) !== 1) throw new Error(`job ${job.id} is no longer this worker's`);
}

export function defineProcessor<T>(definition: ProcessorDefinition<T>): JobProcessor {
  return {
    queue: definition.queue,
    concurrency: definition.concurrency ?? 1,
    async handle(job, token) {
      const parsed = definition.schema.safeParse(job.data);
      if (!parsed.success) {
        throw new UnrecoverableError(
          `invalid data for ${definition.queue}/${job.name}: ${z.prettifyError(parsed.error)}`,
        );
      }
      try {
        return await definition.process(parsed.data, job, token);
      } catch (error) {
        if (error instanceof AppError) throw new UnrecoverableError(`${job.name}: ${error.message}`);
        throw error;
      }
    },
  };
}
