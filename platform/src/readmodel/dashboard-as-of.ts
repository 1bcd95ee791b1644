import type { DashboardAsOfView } from '@licensestore/domain/audit';
import { recordedBy } from '@licensestore/domain/audit';
import type { EventStore } from '@licensestore/domain/events';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/index.js';
import type { Logger } from '../logging/index.js';
import { DashboardFold, type DashboardFoldState } from './dashboard-as-of-fold.js';
import { projectorDescriptors } from './projectors.js';

const PAGE = 5_000;
/** A snapshot every this many events: a fold as of any moment reads at most this many events of the log. */
export const SNAPSHOT_INTERVAL = 20_000;
/** Snapshots of another set of fold rules are not this fold's: the dashboard projector's version names them. */
const FOLD_VERSION = `dashboard-${projectorDescriptors.dashboard.version}/as-of-2`;

/**
 * The latest snapshot of a log prefix recorded entirely by `at`. A snapshot remembers the latest time among the
 * events it folded, so starting from it gives exactly what folding from the start up to `at` gives.
 */
async function snapshotBefore(db: Kysely<Database>, at: Date): Promise<DashboardFoldState | null> {
  const { rows } = await sql<{ state: DashboardFoldState }>`
    SELECT state FROM dashboard_as_of_snapshots
     WHERE fold_version = ${FOLD_VERSION} AND latest_recorded_at <= ${at}
     ORDER BY position DESC LIMIT 1`.execute(db);
  return rows[0]?.state ?? null;
}

async function saveSnapshot(db: Kysely<Database>, fold: DashboardFold): Promise<void> {
  const state = fold.state();
  // Two requests folding the same stretch write the same snapshot: the first one stays.
  await sql`
    INSERT INTO dashboard_as_of_snapshots (position, fold_version, events, latest_recorded_at, state)
    VALUES (${state.position}, ${FOLD_VERSION}, ${state.events}, ${state.latestRecordedAt},
            ${JSON.stringify(state)}::jsonb)
    ON CONFLICT (position, fold_version) DO NOTHING`.execute(db);
}

/**
 * The dashboard's figures as they stood at `at`: the log up to the first event recorded later, folded with the
 * dashboard projector's own fold functions, starting from the latest snapshot of the fold recorded by then. The
 * log before a snapshot never changes, so snapshots are written as folds pass them (every `SNAPSHOT_INTERVAL`
 * events) and kept: a request reads one snapshot and at most that many events (ADR 015).
 */
export async function dashboardAsOf(
  { eventStore, db }: { eventStore: EventStore; db: Kysely<Database> },
  at: Date,
  {
    lowStockThreshold,
    log,
    snapshotInterval = SNAPSHOT_INTERVAL,
  }: { lowStockThreshold: number; log: Logger; snapshotInterval?: number },
): Promise<DashboardAsOfView> {
  const snapshot = await snapshotBefore(db, at);
  const fold = snapshot ? DashboardFold.restore(snapshot, log) : new DashboardFold(log);
  let snapshotAt = fold.events;
  for (;;) {
    const page = await eventStore.readAll(fold.position, PAGE);
    const prefix = recordedBy(page, at);
    // In chunks that end where a snapshot is due, so snapshots lie exactly an interval apart.
    for (let start = 0; start < prefix.length; ) {
      const end = start + snapshotInterval - (fold.events - snapshotAt);
      fold.apply(prefix.slice(start, end));
      start = end;
      if (fold.events - snapshotAt >= snapshotInterval) {
        await saveSnapshot(db, fold);
        snapshotAt = fold.events;
      }
    }
    if (prefix.length < PAGE) break;
  }
  return fold.view(at, lowStockThreshold);
}
