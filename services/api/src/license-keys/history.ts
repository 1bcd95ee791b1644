import type { KeyHistoryEntry, KeyHistoryView } from '@licensestore/domain/key-history';
import type { Database, KeyHistoryTables } from '@licensestore/platform/db';
import type { Kysely } from 'kysely';
import { withAdminNames } from '../audit/events.js';
import { masked, type RevealKey } from './reveal.js';

/**
 * A key's custody history from the `key_history` read model (one indexed range read), with the key as the
 * inventory has it now, masked for every reader; the size of each import batch it came in. Null for a key that
 * has neither.
 */
export async function keyHistory(
  db: Kysely<Database>,
  keyId: string,
  reveal: RevealKey,
): Promise<KeyHistoryView | null> {
  const history = db.withTables<KeyHistoryTables>();
  const [key, rows] = await Promise.all([
    db
      .selectFrom('license_keys')
      .leftJoin('products', 'products.id', 'license_keys.product_id')
      .select(['license_keys.product_id', 'products.name', 'license_keys.key_sealed', 'license_keys.status'])
      .select('license_keys.order_id')
      .where('license_keys.id', '=', keyId)
      .executeTakeFirst(),
    history.selectFrom('key_history').selectAll().where('key_id', '=', keyId).orderBy('position').execute(),
  ]);
  if (!key && rows.length === 0) return null;

  const batches = [
    ...new Set(rows.filter((row) => row.kind === 'imported').map((row) => row.correlation_id)),
  ];
  const sizes = new Map<string, number>();
  if (batches.length > 0) {
    const counted = await history
      .selectFrom('key_history')
      .select(['correlation_id', (eb) => eb.fn.countAll<string>().as('size')])
      .where('kind', '=', 'imported')
      .where('correlation_id', 'in', batches)
      .groupBy('correlation_id')
      .execute();
    for (const { correlation_id, size } of counted) sizes.set(correlation_id, Number(size));
  }
  const entries: KeyHistoryEntry[] = rows.map((row) => ({
    kind: row.kind,
    eventType: row.event_type,
    at: row.at.toISOString(),
    position: row.position,
    orderId: row.order_id,
    actor: { type: row.actor_type as KeyHistoryEntry['actor']['type'], id: row.actor_id },
    correlationId: row.correlation_id,
    details:
      row.kind === 'imported'
        ? { ...row.details, batchSize: sizes.get(row.correlation_id) ?? 1 }
        : row.details,
  }));
  const productId =
    key?.product_id ??
    (entries.find((entry) => typeof entry.details.productId === 'string')?.details.productId as
      | string
      | undefined);
  return {
    keyId,
    productId: productId ?? null,
    productName: key?.name ?? null,
    key: key ? masked(reveal)(key.key_sealed, { keyId }) : null,
    status: key?.status ?? 'removed',
    orderId: key?.order_id ?? null,
    entries: await withAdminNames(db, entries),
  };
}
