import { randomUUID } from 'node:crypto';
import { AppError, NotFoundError } from '@licensestore/domain';
import { AUDIT_VERIFY_JOB, AUDIT_VERIFY_QUEUE, type VerifyJob } from '@licensestore/domain/audit-verify';
import type { Database } from '@licensestore/platform/db';
import type { Logger } from '@licensestore/platform/logging';
import { Router } from 'express';
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import { requireBackOffice, signedInBackOfficeUser } from '../auth/guards.js';
import { isUuid } from '../http/ids.js';
import { backOfficeQueue, QueueUnavailableError } from '../jobs/back-office-queues.js';
import { abandonRun, findRun, recentRuns, startOrJoinRun, usernameOf } from './runs.js';

const DAY_SECONDS = 24 * 60 * 60;

/**
 * Verifications of the read models started from the back office. The replay is heavy and runs every projector,
 * so it runs in the projections role (a BullMQ job), never in the API process; the API records the run and reads
 * back the progress and outcome the projections role writes.
 */
export function auditVerifyRoutes(deps: {
  db: Kysely<Database>;
  redisUrl: string | undefined;
  /** The API's Redis: a key prefix it has (one Redis shared by instances or tests) namespaces the queue too. */
  redis: Redis;
  logger: Logger;
  closing?: AbortSignal;
}): Router {
  const { db, logger } = deps;
  const verifications = backOfficeQueue(
    AUDIT_VERIFY_QUEUE,
    deps,
    'Verifications need the job queue (REDIS_URL)',
  );

  const router = Router();
  // Auditors may start one too: a verification reads the log and the live tables and writes only its own
  // scratch schemas and this run's record, never business data.
  router.post('/audit/verifications', requireBackOffice, async (req, res) => {
    const user = signedInBackOfficeUser(req);
    const { run, created } = await startOrJoinRun(db, await usernameOf(db, user.id), randomUUID());
    if (!created) {
      // Joining the run in progress is an answer, not a conflict: the caller follows that run.
      res.status(200).json(run);
      return;
    }
    try {
      const job: VerifyJob = { verificationId: run.id };
      await verifications().add(AUDIT_VERIFY_JOB, job, {
        jobId: run.id,
        // A verification that fails says why in its record; running it again unasked would only repeat that.
        attempts: 1,
        removeOnComplete: { age: 7 * DAY_SECONDS },
        removeOnFail: { age: 30 * DAY_SECONDS },
      });
    } catch (error) {
      logger.error({ err: error, verificationId: run.id }, 'could not queue a verification');
      await abandonRun(db, run.id, 'the job queue refused the run');
      throw error instanceof AppError ? error : new QueueUnavailableError('The job queue is unavailable');
    }
    res.status(202).location(`/api/audit/verifications/${run.id}`).json(run);
  });

  router.get('/audit/verifications', requireBackOffice, async (_req, res) => {
    res.set('Cache-Control', 'no-store').json(await recentRuns(db));
  });

  router.get('/audit/verifications/:id', requireBackOffice, async (req, res) => {
    const run = isUuid(req.params.id) ? await findRun(db, req.params.id) : undefined;
    if (!run) throw new NotFoundError('Verification not found');
    res.set('Cache-Control', 'no-store').json(run);
  });
  return router;
}
