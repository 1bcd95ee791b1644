import { AppError } from '@licensestore/shared';
import { type Job, UnrecoverableError } from 'bullmq';
import { z } from 'zod';

/** One queue's consumer, with its job data already validated. */
export interface JobProcessor {
  queue: string;
  concurrency: number;
  handle(job: Job): Promise<unknown>;
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
  process(data: T, job: Job): Promise<unknown>;
}

export function defineProcessor<T>(definition: ProcessorDefinition<T>): JobProcessor {
  return {
    queue: definition.queue,
    concurrency: definition.concurrency ?? 1,
    async handle(job) {
      const parsed = definition.schema.safeParse(job.data);
      if (!parsed.success) {
        throw new UnrecoverableError(
          `invalid data for ${definition.queue}/${job.name}: ${z.prettifyError(parsed.error)}`,
        );
      }
      try {
        return await definition.process(parsed.data, job);
      } catch (error) {
        if (error instanceof AppError) throw new UnrecoverableError(`${job.name}: ${error.message}`);
        throw error;
      }
    },
  };
}
