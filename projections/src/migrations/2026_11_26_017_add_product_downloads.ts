import { type Kysely, sql } from 'kysely';

// Frozen: a change to the read schema is a new migration.
// A product's official download URL and installation notes (both optional). The products projector (version 2)
// rebuilds the table from the log, which fills them in.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema of their day, not today's types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE products ADD COLUMN download_url text, ADD COLUMN installation_notes text`.execute(
    db,
  );
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE products DROP COLUMN download_url, DROP COLUMN installation_notes`.execute(db);
}
