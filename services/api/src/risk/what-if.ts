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
import type { Job, Queue } from 'bullmq';
import {
  type BackOfficeQueueDeps,
  backOfficeQueue,
  QueueUnavailableError,
} from '../jobs/back-office-queues.js';

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
 * the process answering checkouts. The api queues the run and answers with its figures when the role has computed
 * (and recorded) them; it withdraws a run no role takes, and stops waiting, not the run, after ANSWERED_WITHIN_MS.
 */
export function whatIfsInProjections(deps: BackOfficeQueueDeps & { logger: Logger }): RunWhatIf {
  const whatIfs = backOfficeQueue(RISK_WHAT_IF_QUEUE, deps, 'What-ifs need the job queue (REDIS_URL)');
  return async (data) => {
    const queue = whatIfs.queue();
    const job = await queue.add(RISK_WHAT_IF_JOB, data, {
      jobId: randomUUID(),
      // A run that fails says why to the admin waiting for it; running it again unasked would only repeat that.
      attempts: 1,
      removeOnComplete: { age: DAY_SECONDS },
      removeOnFail: { age: 7 * DAY_SECONDS },
    });
    const outcome = job.waitUntilFinished(whatIfs.events()).then(
      (value: unknown) => ({ value }),
      (error: unknown) => ({ error }),
    );
    const answeredBy = performance.now() + ANSWERED_WITHIN_MS;
    for (;;) {
      const settled = await Promise.race([outcome, pause(TAKEN_WITHIN_MS, deps.closing)]);
      if (settled && 'error' in settled) {
        deps.logger.error({ err: settled.error, jobId: job.id }, 'what-if failed');
        throw new QueueUnavailableError('The what-if could not be computed; please try again later');
      }
      if (settled) return whatIfResultSchema.parse(settled.value);
      if (deps.closing?.aborted) {
        throw new QueueUnavailableError(
          'The api is stopping; the what-if goes on in the projections role, and its run is recorded when it ends',
        );
      }
      if (performance.now() > answeredBy) throw new WhatIfTimedOutError();
      if (await withdrawnUntaken(queue, job)) {
        throw new QueueUnavailableError(
          `No projections role took the what-if within ${TAKEN_WITHIN_MS / 1000} s; it was withdrawn`,
        );
      }
    }
  };
}

/** `ms`, or less if the api starts stopping meanwhile: nothing either way; it keeps no process alive. */
const pause = (ms: number, closing: AbortSignal | undefined) =>
  delay(ms, undefined, { signal: closing, ref: false }).catch(() => undefined);

/**
 * Takes the job back while it is still waiting and no other what-if runs (one running would be why it waits):
 * true when no role took it. A role taking it meanwhile makes the removal fail, and the wait goes on.
 */
async function withdrawnUntaken(queue: Queue, job: Job): Promise<boolean> {
  if (!(await job.isWaiting()) || (await queue.getActiveCount()) > 0) return false;
  return job.remove().then(
    () => true,
    () => false,
  );
}
