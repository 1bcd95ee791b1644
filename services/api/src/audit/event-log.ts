import type { AuditEventsQuery } from '@licensestore/contract/audit';
import type { AuditEventPage } from '@licensestore/domain/audit';
import type { AuditTables, Database } from '@licensestore/platform/db';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { type AuditLogRow, auditEventOf, withAdminNames } from './events.js';

/**
 * Bounds of a time range as positions, from the `(recorded_at, position)` index. The log is recorded in time
 * order, so these turn "between two moments" into a position range the primary key reads backwards; the
 * `recorded_at` conditions stay, so a bound is a shortcut, never a widening.
 */
const timeBounds = (column: RawBuilder<unknown>, { from, to }: AuditEventsQuery): RawBuilder<unknown>[] => [
  ...(from
    ? [
        sql`e.recorded_at >= ${from}`,
        sql`${column} >= (SELECT position FROM audit_log WHERE recorded_at >= ${from}
                          ORDER BY recorded_at, position LIMIT 1)`,
      ]
    : []),
  ...(to
    ? [
        sql`e.recorded_at <= ${to}`,
        sql`${column} <= (SELECT position FROM audit_log WHERE recorded_at <= ${to}
                          ORDER BY recorded_at DESC, position DESC LIMIT 1)`,
      ]
    : []),
];

/**
 * The statement behind a page of the store-wide log, newest first, every filter combined. Keyset paging on
 * `position`: each filter has an index ending in it, so a page reads `limit + 1` index entries backwards from the
 * cursor, whatever the page number. A product filter starts from `audit_log_products` (an event may concern
 * several products). Exported so a test can EXPLAIN it.
 */
export function auditEventsQuery(filters: AuditEventsQuery): RawBuilder<AuditLogRow> {
  const position = filters.product ? sql`p.position` : sql`e.position`;
  const conditions: RawBuilder<unknown>[] = [
    ...(filters.product ? [sql`p.product_id = ${filters.product}::uuid`] : []),
    ...(filters.type ? [sql`e.type = ${filters.type}`] : []),
    ...(filters.actor ? [sql`e.actor_id = ${filters.actor}`] : []),
    ...(filters.order ? [sql`e.order_id = ${filters.order}::uuid`] : []),
    ...(filters.before ? [sql`${position} < ${filters.before}`] : []),
    ...timeBounds(position, filters),
  ];
  const from = filters.product
    ? sql`audit_log_products p JOIN audit_log e ON e.position = p.position`
    : sql`audit_log e`;
  const where = conditions.length > 0 ? sql`WHERE ${sql.join(conditions, sql` AND `)}` : sql``;
  return sql<AuditLogRow>`
    SELECT e.position, e.event_id, e.stream, e.revision, e.type, e.recorded_at, e.actor_type, e.actor_id,
           e.correlation_id, e.causation_id, e.data
      FROM ${from} ${where}
     ORDER BY ${position} DESC
     LIMIT ${filters.limit + 1}`;
}

/** One page of the store-wide log, newest first, with the cursor of the next (older) page. */
export async function listAuditEvents(
  db: Kysely<Database>,
  filters: AuditEventsQuery,
): Promise<AuditEventPage> {
  const { rows } = await auditEventsQuery(filters).execute(db.withTables<AuditTables>());

  const page = rows.slice(0, filters.limit);
  return {
    events: await withAdminNames(db, page.map(auditEventOf)),
    next: rows.length > filters.limit ? (page.at(-1)?.position ?? null) : null,
  };
}
