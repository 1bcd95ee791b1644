import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import {
  AppError,
  RISK_WHAT_IF_JOB,
  RISK_WHAT_IF_QUEUE,
  type WhatIfJob,
  type WhatIfResult,
  whatIfResultSchema,
} from '@licensestore/domain';
import type { Logger } from '@licensestore/platform/logging';
import { Job, type Queue } from 'bullmq';
import {
  type BackOfficeQueueDeps,
  backOfficeQueue,
  QueueUnavailableError,
} from '../jobs/back-office-queues.js';

/** How often the api looks at where its run stands (one Redis call each time). */
const LOOK_EVERY_MS = 250;
/** How long a what-if may wait in the queue, no other running, before it is taken back as one no role will run. */
const TAKEN_WITHIN_MS = 10_000;
/** How long the api waits for the figures; the run goes on past it and is recorded when it ends. */
const ANSWERED_WITHIN_MS = 10 * 60_000;
const DAY_SECONDS = 24 * 60 * 60;

class WhatIfTimedOutError extends AppError {
  constructor() {
    super(
      504,
      `The what-if did not finish within ${ANSWERED_WITHIN_MS / 60_000} minutes; it goes on in the projections ` +
        'role, and its run is recorded in the risk-whatif stream when it ends',
    );
  }
}

/** The twelve months up to `now`: the period a what-if covers when the request names none. */
export function lastTwelveMonths(now: Date): { from: string; to: string } {
  const from = new Date(now);
  from.setUTCFullYear(from.getUTCFullYear() - 1);
  return { from: from.toISOString(), to: now.toISOString() };
}

export type RunWhatIf = (job: WhatIfJob) => Promise<WhatIfResult>;

/**
 * What-ifs run in the projections role, as verifications do: a run reads the whole history, which is no work for
 * the process answering checkouts. The api queues the run and answers with its figures once the role has computed
 * (and recorded) them; it withdraws a run no role takes, and stops waiting, not the run, after ANSWERED_WITHIN_MS.
 */
export function whatIfsInProjections(deps: BackOfficeQueueDeps & { logger: Logger }): RunWhatIf {
  const whatIfs = backOfficeQueue(RISK_WHAT_IF_QUEUE, deps, 'What-ifs need the job queue (REDIS_URL)');
  return async (data) => {
    const queue = whatIfs();
    const job = await queue.add(RISK_WHAT_IF_JOB, data, {
      jobId: randomUUID(),
      // A run that fails says why to the admin waiting for it; running it again unasked would only repeat that.
      attempts: 1,
      removeOnComplete: { age: DAY_SECONDS },
      removeOnFail: { age: 7 * DAY_SECONDS },
    });
    const queuedAt = performance.now();
    let untakenSince = queuedAt;
    for (;;) {
      await delay(LOOK_EVERY_MS, undefined, { signal: deps.closing }).catch(() => undefined);
      if (deps.closing?.aborted) {
        throw new QueueUnavailableError(
          'The api is stopping; the what-if goes on in the projections role, and its run is recorded when it ends',
        );
      }
      const state = await job.getState();
      if (state === 'completed' || state === 'failed') return figuresOf(queue, job, deps.logger);
      const now = performance.now();
      if (now - queuedAt > ANSWERED_WITHIN_MS) throw new WhatIfTimedOutError();
      // Taken, or waiting behind a run under way: the role is there.
      if (state !== 'waiting' || (await queue.getActiveCount()) > 0) untakenSince = now;
      else if (now - untakenSince > TAKEN_WITHIN_MS && (await withdrawn(job))) {
        throw new QueueUnavailableError(
          `No projections role took the what-if within ${TAKEN_WITHIN_MS / 1000} s; it was withdrawn`,
        );
      }
    }
  };
}

/** The figures a finished run returned; a run that failed is logged and said to have failed. */
async function figuresOf(queue: Queue, job: Job, logger: Logger): Promise<WhatIfResult> {
  const finished = await Job.fromId(queue, job.id as string);
  if (finished?.finishedOn && !finished.failedReason) return whatIfResultSchema.parse(finished.returnvalue);
  logger.error({ jobId: job.id, reason: finished?.failedReason }, 'what-if failed');
  throw new QueueUnavailableError('The what-if could not be computed; please try again later');
}

/** Takes a waiting job back: false when a role took it meanwhile (the removal of a running job fails). */
const withdrawn = (job: Job) =>
  job.remove().then(
    () => true,
    () => false,
  );
