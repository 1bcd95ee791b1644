import { type Kysely, sql } from 'kysely';

// Frozen: a change to the read schema is a new migration.
// The format a product's licence keys must follow (null: the default format). The products projector (version 3)
// rebuilds the table from the log, which fills it in.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema of their day, not today's types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE products ADD COLUMN key_format text`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE products DROP COLUMN key_format`.execute(db);
}
