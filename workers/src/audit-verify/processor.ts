import { allProjectors } from '@licensestore/projections';
import { verifyReadModels } from '@licensestore/projections/audit/verify';
import { AUDIT_VERIFY_QUEUE, verifyJobSchema } from '@licensestore/shared/audit-verify';
import { openDatabase } from '@licensestore/shared/db';
import type { EventStore } from '@licensestore/shared/eventstore';
import type { Logger } from '@licensestore/shared/logging';
import { defineProcessor } from '../jobs/processor.js';
import { failRun, finishRun, progressRecorder, startRun } from './runs.js';

/**
 * Runs a verification an auditor or admin started in the back office and writes its progress and outcome to
 * its record. A failed check (rows differ) and a check that could not be made are both outcomes, recorded;
 * neither is retried.
 */
export const verifyReadModelsProcessor = (deps: {
  databaseUrl: string;
  eventStore: EventStore;
  logger: Logger;
}) =>
  defineProcessor({
    queue: AUDIT_VERIFY_QUEUE,
    schema: verifyJobSchema,
    async process({ verificationId }) {
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
    },
  });
