import { AUDIT_VERIFY_QUEUE, verifyJobSchema } from '@licensestore/domain/audit-verify';
import type { EventStore } from '@licensestore/domain/events';
import { openDatabase } from '@licensestore/platform/db';
import type { Logger } from '@licensestore/platform/logging';
import { UnrecoverableError, Worker } from 'bullmq';
import { z } from 'zod';
import { allProjectors } from '../projectors.js';
import { verifyReadModels } from './verify.js';
import { failRun, finishRun, progressRecorder, startRun } from './verify-runs.js';

/** Where the api queues the verifications it is asked for. */
export interface VerifyQueue {
  redisUrl: string;
  /** BullMQ's key prefix (`bull` when unset); an api with a Redis key prefix puts its own before `bull`. */
  prefix?: string | undefined;
}

interface VerifyDeps {
  databaseUrl: string;
  eventStore: EventStore;
  logger: Logger;
}

/**
 * Runs a verification an auditor or admin started in the back office and writes its progress and outcome to its
 * record. A failed check (rows differ) and a check that could not be made are both outcomes, recorded; neither is
 * retried.
 */
async function runVerification(verificationId: string, deps: VerifyDeps): Promise<void> {
  // Its own pool: a connection per projector (the replay writes them side by side), one for its lock, one spare.
  const { db, pool, close } = openDatabase(deps.databaseUrl, { max: allProjectors.length + 2 });
  try {
    if (!(await startRun(db, verificationId))) return;
    try {
      const report = await verifyReadModels({
        db,
        pool,
        store: deps.eventStore,
        log: deps.logger,
        onProgress: progressRecorder(db, verificationId),
      });
      await finishRun(db, verificationId, report);
      deps.logger.info({ verificationId, passed: report.passed }, 'verification finished');
    } catch (error) {
      deps.logger.warn({ verificationId, err: error }, 'verification could not be made');
      await failRun(db, verificationId, error instanceof Error ? error.message : String(error));
    }
  } finally {
    await close();
  }
}

/**
 * Takes the back office's verifications off their queue, one at a time. A verification replays every projector,
 * so it runs where the projectors' code lives; any instance of the role may take one, a standby included, and
 * verifications lock against each other. Resolves once listening; the returned function stops taking runs and
 * waits for the one under way.
 */
export async function consumeVerifications(
  queue: VerifyQueue,
  deps: VerifyDeps,
): Promise<() => Promise<void>> {
  const worker = new Worker(
    AUDIT_VERIFY_QUEUE,
    async (job) => {
      const parsed = verifyJobSchema.safeParse(job.data);
      if (!parsed.success) {
        throw new UnrecoverableError(
          `invalid data for ${AUDIT_VERIFY_QUEUE}: ${z.prettifyError(parsed.error)}`,
        );
      }
      await runVerification(parsed.data.verificationId, deps);
    },
    { connection: { url: queue.redisUrl }, prefix: queue.prefix, concurrency: 1 },
  );
  worker.on('failed', (job, error) =>
    deps.logger.warn({ queue: AUDIT_VERIFY_QUEUE, jobId: job?.id, err: error }, 'verification job failed'),
  );
  worker.on('error', (error) => deps.logger.error({ queue: AUDIT_VERIFY_QUEUE, err: error }, 'worker error'));
  await worker.waitUntilReady();
  return () => worker.close();
}
