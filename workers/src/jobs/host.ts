import type { Logger } from '@licensestore/platform/logging';
import { Worker } from 'bullmq';
import type { FinishedJobs } from './intents.js';
import { jobLogFields } from './job-log.js';
import type { JobProcessor } from './processor.js';
import { defaultJobOptions, type QueueConnection } from './queues.js';

/**
 * A job whose worker died mid-run (crash, kill, Redis restart) keeps its lock until the lock expires; a stall check
 * then puts it back in the queue. BullMQ's defaults (30 s lock, 30 s checks) leave such a job for up to a minute, and
 * fail it for good on its second stall; our jobs take milliseconds (an SMTP send at most seconds) and are safe to
 * run again, so they are recovered within about 15 s and may stall a few times before failing.
 */
export const STALLED_JOBS = { lockDuration: 10_000, stalledInterval: 5_000, maxStalledCount: 5 };

export interface WorkerHost {
  /** Stops taking new jobs and resolves once every active job has finished and been crossed out. */
  close(): Promise<void>;
}

/** One BullMQ Worker per registered queue. */
export async function startWorkerHost(options: {
  processors: readonly JobProcessor[];
  queues: QueueConnection;
  logger: Logger;
  /** Where a finished job's intent is crossed out, so a Redis loss never runs it again. */
  finishedJobs: FinishedJobs;
}): Promise<WorkerHost> {
  const { processors, queues, logger, finishedJobs } = options;
  const duplicate = processors.find((p, index) => processors.findIndex((q) => q.queue === p.queue) !== index);
  if (duplicate) throw new Error(`two processors registered for queue ${duplicate.queue}`);

  const workers = processors.map((processor) => {
    const worker = new Worker(
      processor.queue,
      async (job, token) => {
        // BullMQ leaves the token out only for sandboxed processors, which we do not use.
        if (token === undefined) throw new Error(`no lock token for job ${job.id}`);
        return processor.handle(job, token);
      },
      {
        connection: queues.connection,
        prefix: queues.prefix,
        concurrency: processor.concurrency,
        ...STALLED_JOBS,
        // Jobs normally carry these from the producer; the worker applies them to any job that does not.
        removeOnComplete: defaultJobOptions.removeOnComplete,
        removeOnFail: defaultJobOptions.removeOnFail,
      },
    );
    worker.on('completed', (job, result) => {
      if (job.id !== undefined) finishedJobs.finished(processor.queue, job.id);
      logger.info(
        { ...jobLogFields(processor.queue, job), result: typeof result === 'string' ? result : undefined },
        'job done',
      );
    });
    worker.on('failed', (job, error) =>
      logger.warn({ ...jobLogFields(processor.queue, job), err: error }, 'job failed'),
    );
    worker.on('error', (error) => logger.error({ queue: processor.queue, err: error }, 'worker error'));
    return worker;
  });
  await Promise.all(workers.map((worker) => worker.waitUntilReady()));
  if (workers.length > 0) logger.info({ queues: processors.map((p) => p.queue) }, 'workers started');

  return {
    close: async () => {
      await Promise.all(workers.map((worker) => worker.close()));
      await finishedJobs.flush();
    },
  };
}
