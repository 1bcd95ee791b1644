import { type Kysely, sql } from 'kysely';

// Frozen: a change to the read schema is a new migration (or, for a projector's own tables, a version bump).
// Orders PayPal declined, as the projectors' createTables made them that day: the dashboard keeps each order's
// customer and whether it was declined, and each customer's count of orders not declined; the customers projector
// keeps whether each order was declined. Columns are added with a default for rows already there, then the default
// is dropped (the projectors write every column; their version bumps rebuild those rows anyway).

const addColumn = async (
  // biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema of their day, not today's types
  db: Kysely<any>,
  table: string,
  [name, type, fill]: [name: string, type: string, fill: string],
) => {
  await sql`ALTER TABLE ${sql.table(table)} ADD COLUMN ${sql.id(name)} ${sql.raw(type)} DEFAULT ${sql.raw(fill)}`.execute(
    db,
  );
  await sql`ALTER TABLE ${sql.table(table)} ALTER COLUMN ${sql.id(name)} DROP DEFAULT`.execute(db);
};

// biome-ignore lint/suspicious/noExplicitAny: see addColumn
export async function up(db: Kysely<any>): Promise<void> {
  await addColumn(db, 'dashboard_orders', ['email_key', 'text NOT NULL', `''`]);
  await addColumn(db, 'dashboard_orders', ['declined', 'boolean NOT NULL', 'false']);
  await addColumn(db, 'dashboard_customers', ['order_count', 'integer NOT NULL', '1']);
  await addColumn(db, 'customer_orders', ['declined', 'boolean NOT NULL', 'false']);
}

// biome-ignore lint/suspicious/noExplicitAny: see addColumn
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE customer_orders DROP COLUMN declined`.execute(db);
  await sql`ALTER TABLE dashboard_customers DROP COLUMN order_count`.execute(db);
  await sql`ALTER TABLE dashboard_orders DROP COLUMN email_key, DROP COLUMN declined`.execute(db);
}
