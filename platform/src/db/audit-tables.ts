import type { VerificationStatus, VerifyProgress, VerifyReport } from '@licensestore/domain/audit-verify';
import type { ColumnType, Generated } from 'kysely';

// The tables of the audit read models and of the back office's verification runs, as kysely types them.

/**
 * The store-wide event log (`audit-log` projector): one row per event, keys masked, with the columns the back
 * office filters on. `position` is the store's string-comparable position: rows page by it, newest first.
 */
export type AuditLogTable = {
  position: string;
  event_id: string;
  stream: string;
  revision: ColumnType<string, string | number, string | number>;
  type: string;
  recorded_at: ColumnType<Date, string | Date, string | Date>;
  actor_type: string;
  actor_id: string;
  correlation_id: string;
  causation_id: string;
  order_id: string | null;
  data: ColumnType<unknown, string, string>;
};

/** Which products an event concerns (an order's capture concerns each of its lines' products): one row each. */
export type AuditLogProductsTable = {
  product_id: string;
  position: string;
};

export type AuditTables = {
  audit_log: AuditLogTable;
  audit_log_products: AuditLogProductsTable;
};

/**
 * A license key's custody history (`key-history` projector): one row per event that did something to the key,
 * in log order. `kind` says what, in the back office's words: imported, removed, assigned, delivered, revealed,
 * and, for inventory events added later that name a key, their own event type.
 */
export type KeyHistoryTable = {
  key_id: string;
  position: string;
  stream: string;
  event_type: string;
  kind: string;
  order_id: string | null;
  at: ColumnType<Date, string | Date, string | Date>;
  actor_type: string;
  actor_id: string;
  correlation_id: string;
  details: ColumnType<Record<string, unknown>, string, string>;
};

export type KeyHistoryTables = { key_history: KeyHistoryTable };

/** The runs table (the API's migration creates it; the projections role writes a run's progress and outcome). */
export interface AuditVerificationsTable {
  id: string;
  status: VerificationStatus;
  requested_by: string;
  requested_at: Generated<Date>;
  started_at: Date | null;
  finished_at: Date | null;
  /** Moved by every progress report: a run that stops moving for long has died with its worker. */
  updated_at: Generated<Date>;
  progress: VerifyProgress | null;
  report: VerifyReport | null;
  error: string | null;
}

export type AuditVerifyTables = {
  audit_verifications: AuditVerificationsTable;
};
