import type { ColumnType } from 'kysely';

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
