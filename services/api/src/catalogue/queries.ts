import type { Product } from '@licensestore/domain';
import type { Database } from '@licensestore/platform/db';
import type { Kysely, Selectable } from 'kysely';

type ProductRow = Pick<
  Selectable<Database['products']>,
  | 'id'
  | 'name'
  | 'description'
  | 'image_url'
  | 'category'
  | 'platform'
  | 'download_url'
  | 'installation_notes'
  | 'key_format'
  | 'regular_price'
  | 'sale_price'
  | 'featured'
  | 'in_stock'
>;

const COLUMNS = [
  'id',
  'name',
  'description',
  'image_url',
  'category',
  'platform',
  'download_url',
  'installation_notes',
  'key_format',
  'regular_price',
  'sale_price',
  'featured',
  'in_stock',
] as const;

const toProduct = (row: ProductRow): Product => ({
  id: row.id,
  name: row.name,
  description: row.description,
  imageUrl: row.image_url,
  category: row.category,
  platform: row.platform,
  downloadUrl: row.download_url,
  installationNotes: row.installation_notes,
  keyFormat: row.key_format,
  regularPrice: row.regular_price,
  salePrice: row.sale_price,
  featured: row.featured,
  inStock: row.in_stock,
});

const listQuery = (db: Kysely<Database>) =>
  db.selectFrom('products').select(COLUMNS).orderBy('created_at').orderBy('id');

export async function listProducts(db: Kysely<Database>): Promise<Product[]> {
  return (await listQuery(db).execute()).map(toProduct);
}

export async function listFeaturedProducts(db: Kysely<Database>): Promise<Product[]> {
  return (await listQuery(db).where('featured', '=', true).execute()).map(toProduct);
}

/** `id` must already be a well-formed UUID (Postgres rejects anything else with an error, not an empty result). */
export async function findProduct(db: Kysely<Database>, id: string): Promise<Product | null> {
  const row = await db.selectFrom('products').select(COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? toProduct(row) : null;
}
