import { type Kysely, sql } from 'kysely';

// Frozen: a change to the read schema is a new migration (or, for a projector's own tables, a version bump).
// The tables of the `orders`, `customers` and `dashboard` projectors, as their createTables made them that day.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema of their day, not today's types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE orders (
      id                 uuid PRIMARY KEY,
      paypal_order_id    text NOT NULL UNIQUE,
      customer_name      text NOT NULL,
      customer_email     text NOT NULL,
      customer_email_key text NOT NULL,
      total              numeric(12, 2) NOT NULL,
      currency           text NOT NULL,
      status             text NOT NULL,
      created_at         timestamptz NOT NULL,
      updated_at         timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX orders_created_at_idx ON orders (created_at DESC, id DESC)`.execute(db);
  await sql`CREATE INDEX orders_customer_email_key_idx ON orders (customer_email_key)`.execute(db);
  await sql`
    CREATE TABLE order_items (
      id           text PRIMARY KEY,
      order_id     uuid NOT NULL,
      line_id      text NOT NULL,
      line_number  integer NOT NULL,
      product_id   uuid NOT NULL,
      product_name text NOT NULL,
      quantity     integer NOT NULL,
      price        numeric(12, 2) NOT NULL,
      line_total   numeric(12, 2) NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX order_items_order_id_idx ON order_items (order_id, line_number)`.execute(db);

  await sql`
    CREATE TABLE customers (
      email_key     text PRIMARY KEY,
      email         text NOT NULL,
      name          text NOT NULL,
      order_count   integer NOT NULL,
      total_spent   numeric(12, 2) NOT NULL,
      last_order_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX customers_last_order_at_idx ON customers (last_order_at DESC, email_key)`.execute(
    db,
  );
  await sql`
    CREATE TABLE customer_orders (
      order_id  uuid PRIMARY KEY,
      email_key text NOT NULL,
      total     numeric(12, 2) NOT NULL,
      status    text NOT NULL
    )`.execute(db);

  await sql`
    CREATE TABLE dashboard_stats (
      id              boolean PRIMARY KEY DEFAULT true CHECK (id),
      product_count   integer NOT NULL,
      featured_count  integer NOT NULL,
      order_count     integer NOT NULL,
      completed_count integer NOT NULL,
      customer_count  integer NOT NULL,
      revenue         numeric(12, 2) NOT NULL,
      updated_at      timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE TABLE dashboard_products (id uuid PRIMARY KEY, featured boolean NOT NULL)`.execute(db);
  await sql`
    CREATE TABLE dashboard_orders (id uuid PRIMARY KEY, status text NOT NULL, total numeric(12, 2) NOT NULL)`.execute(
    db,
  );
  await sql`CREATE TABLE dashboard_customers (email_key text PRIMARY KEY)`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'dashboard_customers',
    'dashboard_orders',
    'dashboard_products',
    'dashboard_stats',
    'customer_orders',
    'customers',
    'order_items',
    'orders',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
