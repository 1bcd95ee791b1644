import { type Kysely, sql } from 'kysely';

// Frozen: a change to the read schema is a new migration.
// The orders projector's version 4 rebuilds `orders` with this column; adding it to the live table first lets the
// api that reads it serve orders (without numbers) while the rebuild runs.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema of their day, not today's types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE orders ADD COLUMN IF NOT EXISTS receipt_number text UNIQUE`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE orders DROP COLUMN IF EXISTS receipt_number`.execute(db);
}
