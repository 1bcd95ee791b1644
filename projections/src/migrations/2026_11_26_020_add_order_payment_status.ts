import { type Kysely, sql } from 'kysely';

/**
 * Where an order's money stands (pending review, completed, denied, refunded), beside the status an admin may set:
 * the confirmation page tells a payment under review from an order an admin marked pending. The `orders`
 * projector's version 3 rebuilds the table, which fills it for every order.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are schema-agnostic
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE orders ADD COLUMN payment_status text NOT NULL DEFAULT 'completed'`.execute(db);
  await sql`ALTER TABLE orders ALTER COLUMN payment_status DROP DEFAULT`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are schema-agnostic
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE orders DROP COLUMN payment_status`.execute(db);
}
