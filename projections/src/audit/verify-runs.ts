import type { VerifyProgress, VerifyReport } from '@licensestore/domain/audit-verify';
import type { AuditVerifyTables, Database } from '@licensestore/platform/db';
import { type Kysely, sql } from 'kysely';

/** Progress is written at most this often (and at each change of phase or projector). */
const PROGRESS_EVERY_MS = 1000;

const runs = (db: Kysely<Database>) => db.withTables<AuditVerifyTables>().updateTable('audit_verifications');
const json = <T>(value: T) => sql<T>`${JSON.stringify(value)}::jsonb`;
const now = sql<Date>`now()`;

/** Marks a queued (or, after a stalled worker, a running) run as running; false when there is none to run. */
export async function startRun(db: Kysely<Database>, id: string): Promise<boolean> {
  const started = await runs(db)
    .set({ status: 'running', started_at: now, updated_at: now, progress: null, report: null, error: null })
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'running'])
    .executeTakeFirst();
  return started.numUpdatedRows > 0n;
}

/** Records progress, throttled; every write also shows the run is alive (`updated_at`). */
export function progressRecorder(db: Kysely<Database>, id: string) {
  let lastAt = 0;
  let lastStep = '';
  return async (progress: VerifyProgress) => {
    const step = `${progress.phase} ${progress.projector ?? ''}`;
    if (step === lastStep && performance.now() - lastAt < PROGRESS_EVERY_MS) return;
    lastAt = performance.now();
    lastStep = step;
    await runs(db)
      .set({ progress: json(progress), updated_at: now })
      .where('id', '=', id)
      .execute();
  };
}

export async function finishRun(db: Kysely<Database>, id: string, report: VerifyReport): Promise<void> {
  await runs(db)
    .set({
      status: report.passed ? 'passed' : 'failed',
      report: json(report),
      finished_at: now,
      updated_at: now,
    })
    .where('id', '=', id)
    .execute();
}

/** The check could not be made (a live model behind or out of date, a database failure): said, not retried. */
export async function failRun(db: Kysely<Database>, id: string, error: string): Promise<void> {
  await runs(db)
    .set({ status: 'error', error, finished_at: now, updated_at: now })
    .where('id', '=', id)
    .execute();
}
