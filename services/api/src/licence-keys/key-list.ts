import type { Database } from '@licensestore/shared/db';
import type { Page } from '@licensestore/shared/paging';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { type Keyset, keysetPage, mapPage, type PageParams } from '../http/paging.js';
import { masked, type RevealKey } from './reveal.js';

/** What a key is to the inventory: stock, held by an order, or taken back from one for good. */
export const KEY_STATUSES = ['available', 'assigned', 'revoked'] as const;

/** A key in the back office's list: masked for every reader (an admin opens one through its recorded reveal). */
export interface KeyListItem {
  id: string;
  productId: string;
  /** Null once the product has been deleted. */
  productName: string | null;
  /** The key's last characters; null when the stored key does not open (logged). */
  key: string | null;
  status: (typeof KEY_STATUSES)[number];
  orderId: string | null;
  createdAt: string;
}

/** The list's filters, beside the paging parameters. */
export const keyListFilters = z.object({
  product: z.uuid({ error: 'must be a product id' }).optional(),
  status: z.enum(KEY_STATUSES, { error: `must be one of ${KEY_STATUSES.join(', ')}` }).optional(),
});
export type KeyListFilters = z.infer<typeof keyListFilters>;

interface KeyRow {
  id: string;
  product_id: string;
  name: string | null;
  key_sealed: string;
  status: string;
  order_id: string | null;
  added_at: Date;
}

/**
 * Newest keys first, the id breaking ties. Every filter combination has its index led by its equality columns and
 * ending in (added_at, id): `licence_keys_added_idx`, `…_product_added_idx`, `…_status_added_idx`,
 * `…_product_status_added_idx`.
 */
export const keyListKeyset: Keyset<KeyRow, 'added'> = {
  sorts: { added: { column: 'licence_keys.added_at', type: 'timestamp', of: (row) => row.added_at } },
  id: { column: 'licence_keys.id', type: 'uuid', of: (row) => row.id },
  defaultSort: 'added',
  defaultDir: 'desc',
};

/** One page of the inventory, filtered; each key masked (opened only to take its last characters). */
export async function listKeyPage(
  db: Kysely<Database>,
  filters: KeyListFilters,
  page: PageParams<'added'>,
  reveal: RevealKey,
): Promise<Page<KeyListItem>> {
  let query = db
    .selectFrom('licence_keys')
    .leftJoin('products', 'products.id', 'licence_keys.product_id')
    .select([
      'licence_keys.id',
      'licence_keys.product_id',
      'products.name',
      'licence_keys.key_sealed',
      'licence_keys.status',
      'licence_keys.order_id',
      'licence_keys.added_at',
    ]);
  if (filters.product) query = query.where('licence_keys.product_id', '=', filters.product.toLowerCase());
  if (filters.status) query = query.where('licence_keys.status', '=', filters.status);
  const mask = masked(reveal);
  return mapPage(await keysetPage(query, keyListKeyset, page), (row) => ({
    id: row.id,
    productId: row.product_id,
    productName: row.name,
    key: mask(row.key_sealed, { keyId: row.id }),
    status: row.status as KeyListItem['status'],
    orderId: row.order_id,
    createdAt: row.added_at.toISOString(),
  }));
}
