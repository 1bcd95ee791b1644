import { type Kysely, sql } from 'kysely';

// Frozen: a change to the read schema is a new migration.
// The back office's paged list of licence keys, newest first: one index per filter combination (none, product,
// status, both), each ending in (added_at, id) so a page is a range read in either direction. The licence-keys
// projector's createTables makes the same indexes on a rebuild.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema of their day, not today's types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX IF NOT EXISTS licence_keys_added_idx ON licence_keys (added_at, id)`.execute(db);
  await sql`
    CREATE INDEX IF NOT EXISTS licence_keys_product_added_idx ON licence_keys (product_id, added_at, id)`.execute(
    db,
  );
  await sql`
    CREATE INDEX IF NOT EXISTS licence_keys_status_added_idx ON licence_keys (status, added_at, id)`.execute(
    db,
  );
  await sql`
    CREATE INDEX IF NOT EXISTS licence_keys_product_status_added_idx
      ON licence_keys (product_id, status, added_at, id)`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const index of [
    'licence_keys_added_idx',
    'licence_keys_product_added_idx',
    'licence_keys_status_added_idx',
    'licence_keys_product_status_added_idx',
  ]) {
    await sql`DROP INDEX IF EXISTS ${sql.id(index)}`.execute(db);
  }
}
