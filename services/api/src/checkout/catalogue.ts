import { type CatalogueEntry, parseProductEvent, productStream } from '@licensestore/domain';
import type { EventStore } from '@licensestore/domain/events';
import type { Database } from '@licensestore/platform/db';
import type { Kysely } from 'kysely';

/**
 * The catalogue as pricing sees it: the `products` read table in one query, and for ids it does not hold the
 * product's own stream, which tells a deleted product (by name) from one that never existed, and covers a
 * product created a moment ago that the projection has not reached yet.
 */
export async function loadCatalogueEntries(
  db: Kysely<Database>,
  eventStore: EventStore,
  productIds: readonly string[],
): Promise<Map<string, CatalogueEntry>> {
  const entries = new Map<string, CatalogueEntry>();
  if (productIds.length === 0) return entries;
  const rows = await db
    .selectFrom('products')
    .select(['id', 'name', 'regular_price', 'sale_price', 'in_stock'])
    .where('id', 'in', [...productIds])
    .execute();
  for (const row of rows) {
    entries.set(row.id, {
      status: 'active',
      name: row.name,
      regularPrice: row.regular_price,
      salePrice: row.sale_price,
      inStock: row.in_stock,
    });
  }
  const missing = productIds.filter((id) => !entries.has(id));
  await Promise.all(missing.map(async (id) => entries.set(id, await fromStream(eventStore, id))));
  return entries;
}

async function fromStream(eventStore: EventStore, productId: string): Promise<CatalogueEntry> {
  let entry: CatalogueEntry = { status: 'unknown' };
  for await (const recorded of eventStore.readStream(productStream(productId))) {
    const event = parseProductEvent(recorded.type, recorded.data);
    if (!event) continue;
    if (event.type === 'ProductCreated') {
      const { name, regularPrice, salePrice, inStock } = event.data.fields;
      entry = { status: 'active', name, regularPrice, salePrice, inStock };
    } else if (event.type === 'ProductUpdated' && entry.status === 'active') {
      const { changes } = event.data;
      entry = {
        status: 'active',
        name: changes.name ?? entry.name,
        regularPrice: changes.regularPrice ?? entry.regularPrice,
        salePrice: changes.salePrice === undefined ? entry.salePrice : changes.salePrice,
        inStock: changes.inStock ?? entry.inStock,
      };
    } else if (event.type === 'ProductDeleted') {
      entry = { status: 'deleted', name: entry.status === 'active' ? entry.name : null };
    }
  }
  return entry;
}
