import type { StockMismatch, StockView } from '@licensestore/contract/license-keys';
import type { Database } from '@licensestore/platform/db';
import { type Kysely, sql } from 'kysely';

/** A key of the inventory as the `license_keys` table holds it (sealed). */
export interface StoredLicenseKey {
  id: string;
  productId: string;
  /** Null when the product has been deleted since. */
  productName: string | null;
  sealedKey: string;
  assigned: boolean;
  orderId: string | null;
  createdAt: string;
}

/** The inventory's keys with their product's name (null once the product is deleted), as every list reads them. */
export const keyRows = (db: Kysely<Database>) =>
  db
    .selectFrom('license_keys')
    .leftJoin('products', 'products.id', 'license_keys.product_id')
    .select([
      'license_keys.id',
      'license_keys.product_id',
      'products.name',
      'license_keys.key_sealed',
      'license_keys.status',
      'license_keys.order_id',
      'license_keys.added_at',
    ]);

/** Every key, newest first. */
export async function listLicenseKeys(db: Kysely<Database>): Promise<StoredLicenseKey[]> {
  const rows = await keyRows(db)
    .orderBy('license_keys.added_at', 'desc')
    .orderBy('license_keys.id', 'desc')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    productId: row.product_id,
    productName: row.name,
    sealedKey: row.key_sealed,
    assigned: row.status === 'assigned',
    orderId: row.order_id,
    createdAt: row.added_at.toISOString(),
  }));
}

/** The product a key belongs to; null when there is no such key. `id` must be a well-formed UUID. */
export async function findLicenseKeyProduct(db: Kysely<Database>, id: string): Promise<string | null> {
  const row = await db
    .selectFrom('license_keys')
    .select('product_id')
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.product_id ?? null;
}

/** A key as a reveal needs it: sealed, its product, and the order holding it (null: stock). */
export interface KeyToReveal {
  productId: string;
  sealedKey: string;
  orderId: string | null;
}

/** The key to open; null when there is no such key. `id` must be a well-formed UUID. */
export async function findKeyToReveal(db: Kysely<Database>, id: string): Promise<KeyToReveal | null> {
  const row = await db
    .selectFrom('license_keys')
    .select(['product_id', 'key_sealed', 'order_id'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? { productId: row.product_id, sealedKey: row.key_sealed, orderId: row.order_id } : null;
}

/** Which of these fingerprints some key of the inventory (any product) already has. */
export async function storedFingerprints(
  db: Kysely<Database>,
  fingerprints: readonly string[],
): Promise<Set<string>> {
  if (fingerprints.length === 0) return new Set();
  const rows = await db
    .selectFrom('license_keys')
    .select('fingerprint')
    .where(sql<boolean>`fingerprint = ANY(${[...fingerprints]}::text[])`)
    .execute();
  return new Set(rows.map((row) => row.fingerprint));
}

/**
 * Products shown in stock with no key available, or out of stock with keys available, by name. The catalogue is
 * read whole, as its list is; each product's stock is one row found by its primary key.
 */
export async function listStockMismatches(db: Kysely<Database>): Promise<StockMismatch[]> {
  const available = sql<number>`coalesce(${sql.ref('license_key_stock.available')}, 0)`;
  const rows = await db
    .selectFrom('products')
    .leftJoin('license_key_stock', 'license_key_stock.product_id', 'products.id')
    .select(['products.id', 'products.name', 'products.in_stock', available.as('available')])
    .where((eb) =>
      eb.or([
        eb.and([eb('products.in_stock', '=', true), eb(available, '=', 0)]),
        eb.and([eb('products.in_stock', '=', false), eb(available, '>', 0)]),
      ]),
    )
    .orderBy('products.name')
    .orderBy('products.id')
    .execute();
  return rows.map((row) => ({
    productId: row.id,
    productName: row.name,
    inStock: row.in_stock,
    available: Number(row.available),
  }));
}

/** Every product on sale, by name, with its keys (none yet counts as 0). */
export async function listStock(db: Kysely<Database>, lowStockThreshold: number): Promise<StockView[]> {
  const rows = await db
    .selectFrom('products')
    .leftJoin('license_key_stock', 'license_key_stock.product_id', 'products.id')
    .select([
      'products.id',
      'products.name',
      'license_key_stock.available',
      'license_key_stock.assigned',
      'license_key_stock.waiting',
    ])
    .orderBy('products.name')
    .orderBy('products.id')
    .execute();
  return rows.map((row) => {
    const available = row.available ?? 0;
    return {
      productId: row.id,
      productName: row.name,
      available,
      assigned: row.assigned ?? 0,
      waiting: row.waiting ?? 0,
      lowStock: available < lowStockThreshold,
    };
  });
}
