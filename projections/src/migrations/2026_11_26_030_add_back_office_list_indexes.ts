import { type Kysely, sql } from 'kysely';

// Frozen: a change to the read schema is a new migration.
// The back office's paged lists of orders and customers: one index on (sort column, tie-breaking id) per sort,
// led by the filter column where a filter and a sort go together, and trigram indexes for searching names and
// e-mail addresses by any part of them. The projectors' createTables make the same indexes on a rebuild.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema of their day, not today's types
export async function up(db: Kysely<any>): Promise<void> {
  // A trusted extension: the database's owner may create it (shipped with Postgres's contrib modules).
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS orders_total_idx ON orders (total, id)`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS orders_status_created_at_idx ON orders (status, created_at, id)`.execute(
    db,
  );
  await sql`CREATE INDEX IF NOT EXISTS orders_status_total_idx ON orders (status, total, id)`.execute(db);
  await sql`
    CREATE INDEX IF NOT EXISTS orders_customer_created_at_idx ON orders (customer_email_key, created_at, id)`.execute(
    db,
  );
  await sql`
    CREATE INDEX IF NOT EXISTS orders_customer_name_trgm_idx ON orders USING gin (customer_name gin_trgm_ops)`.execute(
    db,
  );
  await sql`
    CREATE INDEX IF NOT EXISTS orders_customer_email_trgm_idx ON orders USING gin (customer_email gin_trgm_ops)`.execute(
    db,
  );
  await sql`CREATE INDEX IF NOT EXISTS customers_last_order_idx ON customers (last_order_at, email_key)`.execute(
    db,
  );
  await sql`CREATE INDEX IF NOT EXISTS customers_total_spent_idx ON customers (total_spent, email_key)`.execute(
    db,
  );
  await sql`CREATE INDEX IF NOT EXISTS customers_name_idx ON customers (name, email_key)`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS customers_name_trgm_idx ON customers USING gin (name gin_trgm_ops)`.execute(
    db,
  );
  await sql`CREATE INDEX IF NOT EXISTS customers_email_trgm_idx ON customers USING gin (email gin_trgm_ops)`.execute(
    db,
  );
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const index of [
    'orders_total_idx',
    'orders_status_created_at_idx',
    'orders_status_total_idx',
    'orders_customer_created_at_idx',
    'orders_customer_name_trgm_idx',
    'orders_customer_email_trgm_idx',
    'customers_last_order_idx',
    'customers_total_spent_idx',
    'customers_name_idx',
    'customers_name_trgm_idx',
    'customers_email_trgm_idx',
  ]) {
    await sql`DROP INDEX IF EXISTS ${sql.id(index)}`.execute(db);
  }
}
