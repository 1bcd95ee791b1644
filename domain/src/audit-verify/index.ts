import { z } from 'zod';

/**
 * A verification of the read models against the log (`npm run audit:verify`, or a run an auditor starts in the
 * back office): what it reports, and how a back-office run travels from the API to the projections role and back.
 */

export type Row = Record<string, unknown>;

/** How one live table compares with the same table replayed from the log. */
export interface TableComparison {
  projector: string;
  table: string;
  liveRows: number;
  replayedRows: number;
  /** Rows the replay has and the live table lacks. */
  missing: number;
  /** Rows the live table has and the replay does not. */
  extra: number;
  /** Rows both have, with at least one column that differs. */
  different: number;
}

/** One row that differs, both sides as JSON (null for the side that lacks it). */
export interface RowDifference {
  projector: string;
  table: string;
  kind: 'missing' | 'extra' | 'different';
  key: Row;
  /** The columns whose values differ (every column but the key for a missing or extra row). */
  columns: string[];
  live: Row | null;
  replayed: Row | null;
}

export interface EventBehind {
  stream: string;
  type: string;
  position: string;
  /** When it was recorded (ISO 8601). */
  at: string;
}

export interface Mismatch extends RowDifference {
  /** The events that made the row, in log order, up to the position the table was compared at. */
  events: EventBehind[];
  /** Earlier events behind it, not shown. */
  earlierEvents: number;
  /**
   * `streams`: `events` are the events of the streams behind the row; `whole-log`: the row is an aggregate of
   * every event (the dashboard counters); `unknown`: its projector does not say which streams make its rows.
   */
  behind: 'streams' | 'whole-log' | 'unknown';
}

/** An event of the log the replay met that does not read: every projector passed it, live and replayed alike. */
export interface UnreadableBehind extends EventBehind {
  reason: string;
}

export interface ProjectorCompared {
  name: string;
  /** The position its live tables and its replay were compared at. */
  position: string | null;
  /** Events the live model was ahead of the replay by, replayed into the shadow before the comparison. */
  eventsAfterReplay: number;
}

export interface VerifyReport {
  passed: boolean;
  /** Events replayed from the start of the log, and the position of the last one. */
  events: number;
  position: string | null;
  replayMs: number;
  durationMs: number;
  projectors: ProjectorCompared[];
  tables: TableComparison[];
  mismatches: Mismatch[];
  /** Mismatches counted in `tables` but not explained in `mismatches`. */
  unshownMismatches: number;
  /** The events the replay met that do not read (absent from the reports of runs made before they were reported). */
  unreadable?: UnreadableBehind[];
}

export type VerifyPhase = 'replaying' | 'comparing' | 'explaining';

/**
 * Where a verification is: replaying counts events (`total` is the size of the log when it started, an
 * estimate: events keep arriving), comparing counts tables, explaining counts mismatches.
 */
export interface VerifyProgress {
  phase: VerifyPhase;
  projector: string | null;
  done: number;
  total: number | null;
}

export type VerificationStatus = 'queued' | 'running' | 'passed' | 'failed' | 'error';

/** A back-office run as `GET /api/audit/verifications/:id` answers it. */
export interface VerificationView {
  id: string;
  status: VerificationStatus;
  requestedBy: string;
  requestedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  progress: VerifyProgress | null;
  report: VerifyReport | null;
  /** Why a run ended in `error` (the check could not be made), for the back office. */
  error: string | null;
}

/** The queue of back-office runs, which the projections role consumes; one job per run, its id the run's. */
export const AUDIT_VERIFY_QUEUE = 'audit-verify';
export const AUDIT_VERIFY_JOB = 'verify-read-models';
export const verifyJobSchema = z.object({ verificationId: z.uuid() });
export type VerifyJob = z.infer<typeof verifyJobSchema>;
