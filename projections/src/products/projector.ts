import {
  type ProductChanges,
  type ProductEvent,
  type ProductFields,
  productStream,
} from '@licensestore/domain';
import type { Database, ProductsTable } from '@licensestore/platform/db';
import { parseProductBatch, projectorDescriptors } from '@licensestore/platform/readmodel';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Projector } from '../projector.js';

/** A `products` row as the projector writes it (prices as decimal strings, timestamps as ISO text). */
export type ProductRow = Omit<ProductsTable, 'created_at' | 'updated_at'> & {
  created_at: string;
  updated_at: string;
};

const COLUMNS = {
  name: 'name',
  description: 'description',
  imageUrl: 'image_url',
  category: 'category',
  platform: 'platform',
  downloadUrl: 'download_url',
  installationNotes: 'installation_notes',
  keyFormat: 'key_format',
  regularPrice: 'regular_price',
  salePrice: 'sale_price',
  featured: 'featured',
  inStock: 'in_stock',
} as const satisfies Record<keyof ProductFields, keyof ProductRow>;

/** Writes the changed fields into `row`, which the caller owns (folding a batch allocates as little as it can). */
const applyChanges = (row: ProductRow, changes: ProductChanges, updatedAt: string): ProductRow => {
  for (const field in changes) {
    const column = COLUMNS[field as keyof ProductChanges];
    const value = changes[field as keyof ProductChanges];
    if (column && value !== undefined) (row as unknown as Record<string, unknown>)[column] = value;
  }
  row.updated_at = updatedAt;
  return row;
};

const createdRow = (id: string, fields: ProductFields, createdAt: string): ProductRow => ({
  id,
  name: fields.name,
  description: fields.description,
  image_url: fields.imageUrl,
  category: fields.category,
  platform: fields.platform,
  download_url: fields.downloadUrl ?? null,
  installation_notes: fields.installationNotes ?? null,
  key_format: fields.keyFormat ?? null,
  regular_price: fields.regularPrice,
  sale_price: fields.salePrice ?? null,
  featured: fields.featured,
  in_stock: fields.inStock,
  created_at: createdAt,
  updated_at: createdAt,
});

/** What a batch leaves of one product: a whole row, changes to a row stored earlier, or nothing. */
export type FoldedProduct =
  | { kind: 'row'; row: ProductRow }
  | { kind: 'changes'; changes: ProductChanges; updatedAt: string }
  | { kind: 'deleted' };

/**
 * Folds a batch per product, in log order, with the same rules as `evolveProduct`: changes to a deleted
 * product are ignored, a creation replaces whatever was there.
 */
export function foldProductEvents(events: Iterable<ProductEvent>): Map<string, FoldedProduct> {
  const folded = new Map<string, FoldedProduct>();
  for (const event of events) {
    const id = event.data.productId;
    switch (event.type) {
      case 'ProductCreated':
        folded.set(id, { kind: 'row', row: createdRow(id, event.data.fields, event.data.createdAt) });
        break;
      case 'ProductUpdated': {
        const { changes, updatedAt } = event.data;
        const current = folded.get(id);
        if (!current) folded.set(id, { kind: 'changes', changes: { ...changes }, updatedAt });
        else if (current.kind === 'row') applyChanges(current.row, changes, updatedAt);
        else if (current.kind === 'changes') {
          Object.assign(current.changes, changes);
          current.updatedAt = updatedAt;
        }
        break;
      }
      case 'ProductDeleted':
        folded.set(id, { kind: 'deleted' });
        break;
    }
  }
  return folded;
}

const table = (schema: string) => sql.table(`${schema}.products`);

async function loadRows(
  trx: Transaction<Database>,
  schema: string,
  ids: string[],
): Promise<Map<string, ProductRow>> {
  if (ids.length === 0) return new Map();
  // Prices and timestamps as text: exact, and written back as they are.
  const { rows } = await sql<ProductRow>`
    SELECT id, name, description, image_url, category, platform, download_url, installation_notes, key_format,
           regular_price::text AS regular_price,
           sale_price::text AS sale_price, featured, in_stock, created_at::text AS created_at,
           updated_at::text AS updated_at
      FROM ${table(schema)} WHERE id = ANY(${ids}::uuid[])`.execute(trx);
  return new Map(rows.map((row) => [row.id, row]));
}

async function writeRows(trx: Transaction<Database>, schema: string, rows: ProductRow[], deleted: string[]) {
  if (deleted.length > 0) {
    await sql`DELETE FROM ${table(schema)} WHERE id = ANY(${deleted}::uuid[])`.execute(trx);
  }
  if (rows.length === 0) return;
  // One statement for the whole batch; rows travel as one JSON parameter (no 65k bind-parameter limit).
  await sql`
    INSERT INTO ${table(schema)}
    SELECT * FROM json_populate_recordset(NULL::${table(schema)}, ${JSON.stringify(rows)}::json)
    ON CONFLICT (id) DO UPDATE SET
      name = excluded.name, description = excluded.description, image_url = excluded.image_url,
      category = excluded.category, platform = excluded.platform, download_url = excluded.download_url,
      installation_notes = excluded.installation_notes, key_format = excluded.key_format,
      regular_price = excluded.regular_price,
      sale_price = excluded.sale_price, featured = excluded.featured, in_stock = excluded.in_stock,
      created_at = excluded.created_at, updated_at = excluded.updated_at`.execute(trx);
}

/** The storefront catalogue: one row per live product; a deleted product has no row (so GET by id is 404). */
export const productsProjector: Projector = {
  ...projectorDescriptors.products,
  tables: ['products'],
  sources: { products: (row) => [{ stream: productStream(String(row.id)) }] },

  async createTables(db: Kysely<Database>, schema: string) {
    await sql`
      CREATE TABLE ${table(schema)} (
        id            uuid PRIMARY KEY,
        name          text NOT NULL,
        description   text NOT NULL,
        image_url     text NOT NULL,
        category      text NOT NULL,
        platform      text NOT NULL,
        regular_price numeric(12, 2) NOT NULL,
        sale_price    numeric(12, 2),
        featured      boolean NOT NULL DEFAULT false,
        in_stock      boolean NOT NULL DEFAULT true,
        created_at    timestamptz NOT NULL,
        updated_at    timestamptz NOT NULL,
        download_url  text,
        installation_notes text,
        key_format    text
      )`.execute(db);
  },

  readerIndexes: (schema) => [
    sql`CREATE INDEX products_featured_idx ON ${table(schema)} (featured) WHERE featured = true`,
  ],

  async apply(trx, events, { schema, log }) {
    const folded = foldProductEvents(parseProductBatch(events, log, 'products'));
    if (folded.size === 0) return;
    const changedOnly = [...folded].filter(([, product]) => product.kind === 'changes').map(([id]) => id);
    const stored = await loadRows(trx, schema, changedOnly);
    const rows: ProductRow[] = [];
    const deleted: string[] = [];
    for (const [id, product] of folded) {
      if (product.kind === 'row') rows.push(product.row);
      else if (product.kind === 'deleted') deleted.push(id);
      else {
        const row = stored.get(id);
        // Changes to a product that has no row (never created, or deleted): nothing to show, as in evolveProduct.
        if (row) rows.push(applyChanges(row, product.changes, product.updatedAt));
      }
    }
    await writeRows(trx, schema, rows, deleted);
  },
};
