import type { KeyListFilters, KeyListItem } from '@licensestore/contract/license-keys';
import type { Page } from '@licensestore/contract/paging';
import { ValidationError } from '@licensestore/domain';
import type { Database } from '@licensestore/platform/db';
import { canonicalLicenseKey, KEY_TAIL_LENGTH, type KeyVault } from '@licensestore/platform/key-vault';
import type { Kysely } from 'kysely';
import { type Keyset, keysetPage, mapPage, type PageParams } from '../http/paging.js';
import { keyRows } from './queries.js';
import { masked, type RevealKey } from './reveal.js';

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
 * ending in (added_at, id): `license_keys_added_idx`, `…_product_added_idx`, `…_status_added_idx`,
 * `…_product_status_added_idx`, and for a search `…_tail_added_idx` (a whole key: the few rows of its fingerprint).
 */
export const keyListKeyset: Keyset<KeyRow, 'added'> = {
  sorts: { added: { column: 'license_keys.added_at', type: 'timestamp', of: (row) => row.added_at } },
  id: { column: 'license_keys.id', type: 'uuid', of: (row) => row.id },
  defaultSort: 'added',
  defaultDir: 'desc',
};

const SEARCH_TOO_SHORT = `q: type the last ${KEY_TAIL_LENGTH} characters of the key, or the whole key`;

/**
 * A search as the indexed column it matches, never opening a key: its last characters by their keyed hash, a
 * whole key by its fingerprint. Case and spaces do not count, as for duplicates.
 */
function keySearch(vault: KeyVault, q: string) {
  const typed = canonicalLicenseKey(q);
  if (typed.length < KEY_TAIL_LENGTH) throw new ValidationError(SEARCH_TOO_SHORT);
  return typed.length === KEY_TAIL_LENGTH
    ? ({ column: 'license_keys.tail_hash', value: vault.tailHash(typed) } as const)
    : ({ column: 'license_keys.fingerprint', value: vault.fingerprint(typed) } as const);
}

/** One page of the inventory, filtered; each key masked (opened only to take its last characters). */
export async function listKeyPage(
  db: Kysely<Database>,
  filters: KeyListFilters,
  page: PageParams<'added'>,
  { reveal, vault }: { reveal: RevealKey; vault: KeyVault },
): Promise<Page<KeyListItem>> {
  let query = keyRows(db);
  if (filters.product) query = query.where('license_keys.product_id', '=', filters.product.toLowerCase());
  if (filters.status) query = query.where('license_keys.status', '=', filters.status);
  if (filters.q?.trim()) {
    const { column, value } = keySearch(vault, filters.q);
    query = query.where(column, '=', value);
  }
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
