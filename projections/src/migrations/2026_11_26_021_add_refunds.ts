import { type Kysely, sql } from 'kysely';

// Frozen: a change to the read schema is a new migration (or, for a projector's own tables, a version bump).
// Refunds and keys taken back, as the projectors' createTables made them that day: the orders projector's refunds
// and refunded units, revoked and returned keys, and refunded money beside each order's total for the dashboard
// and customers. Columns are added with a default for rows already there, then the default is dropped (the
// projectors write every column; their version bumps rebuild those rows anyway).

const addColumns = async (
  // biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema of their day, not today's types
  db: Kysely<any>,
  table: string,
  columns: Array<[name: string, type: string, fill: string]>,
) => {
  for (const [name, type, fill] of columns) {
    await sql`ALTER TABLE ${sql.table(table)} ADD COLUMN ${sql.id(name)} ${sql.raw(type)} DEFAULT ${sql.raw(fill)}`.execute(
      db,
    );
    await sql`ALTER TABLE ${sql.table(table)} ALTER COLUMN ${sql.id(name)} DROP DEFAULT`.execute(db);
  }
};

// biome-ignore lint/suspicious/noExplicitAny: see addColumns
export async function up(db: Kysely<any>): Promise<void> {
  await addColumns(db, 'orders', [['refunded_total', 'numeric(12, 2) NOT NULL', '0']]);
  await addColumns(db, 'order_items', [
    ['license_key_ids', 'text[] NOT NULL', `'{}'`],
    ['refunded_units', 'integer NOT NULL', '0'],
    ['refunded_key_ids', 'text[] NOT NULL', `'{}'`],
  ]);
  await sql`
    CREATE TABLE order_refunds (
      id               text PRIMARY KEY,
      order_id         uuid NOT NULL,
      refund_id        uuid,
      paypal_refund_id text,
      amount           numeric(12, 2) NOT NULL,
      units            jsonb NOT NULL,
      reason           text,
      status           text NOT NULL,
      requested_by     text,
      requested_at     timestamptz NOT NULL,
      completed_at     timestamptz,
      failed_at        timestamptz,
      failure_code     text,
      failure_message  text
    )`.execute(db);
  await sql`CREATE INDEX order_refunds_order_id_idx ON order_refunds (order_id, requested_at)`.execute(db);
  await addColumns(db, 'licence_keys', [['returned_from', 'uuid', 'NULL']]);
  await addColumns(db, 'licence_key_stock', [['revoked', 'integer NOT NULL', '0']]);
  await addColumns(db, 'dashboard_orders', [['refunded', 'numeric(12, 2) NOT NULL', '0']]);
  await addColumns(db, 'customer_orders', [['refunded', 'numeric(12, 2) NOT NULL', '0']]);
}

// biome-ignore lint/suspicious/noExplicitAny: see addColumns
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE customer_orders DROP COLUMN refunded`.execute(db);
  await sql`ALTER TABLE dashboard_orders DROP COLUMN refunded`.execute(db);
  await sql`ALTER TABLE licence_key_stock DROP COLUMN revoked`.execute(db);
  await sql`ALTER TABLE licence_keys DROP COLUMN returned_from`.execute(db);
  await db.schema.dropTable('order_refunds').execute();
  await sql`ALTER TABLE order_items DROP COLUMN license_key_ids, DROP COLUMN refunded_units, DROP COLUMN refunded_key_ids`.execute(
    db,
  );
  await sql`ALTER TABLE orders DROP COLUMN refunded_total`.execute(db);
}
