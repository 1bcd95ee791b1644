import { AUDIT_VERIFY_QUEUE, verifyJobSchema } from '@licensestore/domain/audit-verify';
import type { EventStore } from '@licensestore/domain/events';
import { openDatabase } from '@licensestore/platform/db';
import type { Logger } from '@licensestore/platform/logging';
import { type BackOfficeQueue, consumeBackOfficeJobs } from '../back-office-jobs.js';
import { allProjectors } from '../projectors.js';
import { verifyReadModels } from './verify.js';
import { failRun, finishRun, progressRecorder, startRun } from './verify-runs.js';

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
 * so it runs where the projectors' code lives; verifications lock against each other. Resolves once listening; the
 * returned function stops taking runs and waits for the one under way.
 */
export function consumeVerifications(queue: BackOfficeQueue, deps: VerifyDeps): Promise<() => Promise<void>> {
  return consumeBackOfficeJobs(AUDIT_VERIFY_QUEUE, verifyJobSchema, queue, deps.logger, (job) =>
    runVerification(job.verificationId, deps),
  );
}
