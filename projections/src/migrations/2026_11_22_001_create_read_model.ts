import { type Kysely, sql } from 'kysely';

// Frozen: a change to the read schema is a new migration (or, for a projector's own tables, a version bump).

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema of their day, not today's types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('products')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull())
    .addColumn('image_url', 'text', (col) => col.notNull())
    .addColumn('category', 'text', (col) => col.notNull())
    .addColumn('platform', 'text', (col) => col.notNull())
    .addColumn('regular_price', 'numeric(12, 2)', (col) => col.notNull())
    .addColumn('sale_price', 'numeric(12, 2)')
    .addColumn('featured', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('in_stock', 'boolean', (col) => col.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('products_featured_idx')
    .on('products')
    .column('featured')
    .where(sql.ref('featured'), '=', true)
    .execute();

  await db.schema
    .createTable('testimonials')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('customer_name', 'text', (col) => col.notNull())
    .addColumn('rating', 'smallint', (col) => col.notNull().check(sql`rating BETWEEN 1 AND 5`))
    .addColumn('comment', 'text', (col) => col.notNull())
    .addColumn('location', 'text', (col) => col.notNull())
    .addColumn('date', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('projection_checkpoints')
    .addColumn('name', 'text', (col) => col.primaryKey())
    .addColumn('position', 'text')
    .addColumn('version', 'integer', (col) => col.notNull())
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('projection_checkpoints').execute();
  await db.schema.dropTable('testimonials').execute();
  await db.schema.dropTable('products').execute();
}
