import type { VerificationView } from '@licensestore/domain/audit-verify';
import type { AuditVerifyTables, Database } from '@licensestore/platform/db';
import { type Kysely, type Selectable, sql } from 'kysely';

/** A run whose progress has not moved for this long died with its worker; a new one may start. */
const STALE_AFTER = '10 minutes';
const RECENT_RUNS = 20;

type RunRow = Selectable<AuditVerifyTables['audit_verifications']>;

const runs = (db: Kysely<Database>) => db.withTables<AuditVerifyTables>();

const iso = (at: Date | null) => at?.toISOString() ?? null;

const view = (row: RunRow): VerificationView => ({
  id: row.id,
  status: row.status,
  requestedBy: row.requested_by,
  requestedAt: row.requested_at.toISOString(),
  startedAt: iso(row.started_at),
  finishedAt: iso(row.finished_at),
  progress: row.progress,
  report: row.report,
  error: row.error,
});

export async function findRun(db: Kysely<Database>, id: string): Promise<VerificationView | undefined> {
  const row = await runs(db)
    .selectFrom('audit_verifications')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  return row && view(row);
}

/** The latest runs, newest first, without their mismatches (a run's own page has them). */
export async function recentRuns(db: Kysely<Database>): Promise<VerificationView[]> {
  const rows = await runs(db)
    .selectFrom('audit_verifications')
    .selectAll()
    .orderBy('requested_at', 'desc')
    .limit(RECENT_RUNS)
    .execute();
  return rows.map((row) => {
    const run = view(row);
    return run.report ? { ...run, report: { ...run.report, mismatches: [] } } : run;
  });
}

/**
 * The run in progress, or a new queued one: one verification at a time per store (the replay is heavy, and a
 * second would only be refused by the verification's own lock). Serialised by a transaction-scoped advisory
 * lock, so two auditors pressing Start at once get the same run.
 */
export async function startOrJoinRun(
  db: Kysely<Database>,
  requestedBy: string,
  id: string,
): Promise<{ run: VerificationView; created: boolean }> {
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtextextended('licensestore:audit-verify-runs', 0))`.execute(
      trx,
    );
    const active = await runs(trx)
      .selectFrom('audit_verifications')
      .selectAll()
      .where('status', 'in', ['queued', 'running'])
      .where('updated_at', '>', sql<Date>`now() - ${STALE_AFTER}::interval`)
      .orderBy('requested_at', 'desc')
      .executeTakeFirst();
    if (active) return { run: view(active), created: false };
    const row = await runs(trx)
      .insertInto('audit_verifications')
      .values({ id, status: 'queued', requested_by: requestedBy })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { run: view(row), created: true };
  });
}

/** A run the projections role never got (the queue refused it): ended, so it does not block the next one. */
export async function abandonRun(db: Kysely<Database>, id: string, reason: string): Promise<void> {
  await runs(db)
    .updateTable('audit_verifications')
    .set({ status: 'error', error: reason, finished_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .execute();
}

export async function usernameOf(db: Kysely<Database>, userId: string): Promise<string> {
  const user = await db
    .selectFrom('admin_users')
    .select('username')
    .where('id', '=', userId)
    .executeTakeFirst();
  return user?.username ?? userId;
}
