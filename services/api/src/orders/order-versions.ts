import type { Database } from '@licensestore/platform/db';
import { type Kysely, sql } from 'kysely';

/**
 * A text per order that changes whenever anything the confirmation page shows changes: the status, the last
 * event applied (updated_at), the receipt number, where its review stands and the number of keys delivered (two
 * events can share a millisecond).
 * One query for any number of orders; orders the read model does not have are absent from the map.
 */
export async function orderVersions(db: Kysely<Database>, orderIds: string[]): Promise<Map<string, string>> {
  if (orderIds.length === 0) return new Map();
  const { rows } = await sql<{ id: string; version: string }>`
    SELECT o.id,
           concat_ws('|', o.status, o.updated_at::text, coalesce(o.receipt_number, ''), coalesce(o.review_status, ''),
             (SELECT coalesce(sum(cardinality(i.license_keys)), 0) FROM order_items i WHERE i.order_id = o.id)
           ) AS version
      FROM orders o
     WHERE o.id = ANY(${orderIds}::uuid[])`.execute(db);
  return new Map(rows.map((row) => [row.id, row.version]));
}
