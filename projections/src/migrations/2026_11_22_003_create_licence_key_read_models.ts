import { type Kysely, sql } from 'kysely';

// Frozen: a change to the read schema is a new migration (or, for a projector's own tables, a version bump).
// The `licence-keys` projector's tables, and what licence-key delivery added to the `orders` and `dashboard` projectors' tables,
// as their createTables made them that day. Columns are added with a default for rows already there, then the
// default is dropped (the projectors write every column; the version bumps rebuild those rows anyway).

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema of their day, not today's types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE licence_keys (
      id          uuid PRIMARY KEY,
      product_id  uuid NOT NULL,
      key_sealed  text NOT NULL,
      fingerprint text NOT NULL,
      status      text NOT NULL,
      order_id    uuid,
      line_id     text,
      added_at    timestamptz NOT NULL,
      assigned_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX licence_keys_fingerprint_idx ON licence_keys (fingerprint)`.execute(db);
  await sql`
    CREATE TABLE licence_key_stock (
      product_id uuid PRIMARY KEY,
      available  integer NOT NULL,
      assigned   integer NOT NULL,
      waiting    integer NOT NULL,
      updated_at timestamptz NOT NULL
    )`.execute(db);

  await sql`ALTER TABLE orders ADD COLUMN fulfilled_at timestamptz, ADD COLUMN delivery_email_sent_at timestamptz`.execute(
    db,
  );
  await sql`ALTER TABLE order_items ADD COLUMN license_keys text[] NOT NULL DEFAULT '{}'`.execute(db);
  await sql`ALTER TABLE order_items ALTER COLUMN license_keys DROP DEFAULT`.execute(db);

  await sql`
    ALTER TABLE dashboard_stats
      ADD COLUMN available_keys integer NOT NULL DEFAULT 0,
      ADD COLUMN assigned_keys integer NOT NULL DEFAULT 0,
      ADD COLUMN orders_awaiting_keys integer NOT NULL DEFAULT 0`.execute(db);
  await sql`
    ALTER TABLE dashboard_stats
      ALTER COLUMN available_keys DROP DEFAULT,
      ALTER COLUMN assigned_keys DROP DEFAULT,
      ALTER COLUMN orders_awaiting_keys DROP DEFAULT`.execute(db);
  await sql`ALTER TABLE dashboard_orders ADD COLUMN fulfilled boolean NOT NULL DEFAULT false`.execute(db);
  await sql`ALTER TABLE dashboard_orders ALTER COLUMN fulfilled DROP DEFAULT`.execute(db);
  await sql`CREATE TABLE dashboard_licence_keys (id uuid PRIMARY KEY, status text NOT NULL)`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('dashboard_licence_keys').execute();
  await sql`ALTER TABLE dashboard_orders DROP COLUMN fulfilled`.execute(db);
  await sql`
    ALTER TABLE dashboard_stats
      DROP COLUMN available_keys, DROP COLUMN assigned_keys, DROP COLUMN orders_awaiting_keys`.execute(db);
  await sql`ALTER TABLE order_items DROP COLUMN license_keys`.execute(db);
  await sql`ALTER TABLE orders DROP COLUMN fulfilled_at, DROP COLUMN delivery_email_sent_at`.execute(db);
  await db.schema.dropTable('licence_key_stock').execute();
  await db.schema.dropTable('licence_keys').execute();
}
