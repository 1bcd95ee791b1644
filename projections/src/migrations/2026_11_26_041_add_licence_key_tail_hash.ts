import { type Kysely, sql } from 'kysely';

// Frozen: a change to the read schema is a new migration.
// The back office finds a key by its last characters: a keyed hash of them, recorded when the key is added
// (`LicenceKeyAdded.tailHash`), indexed with the list's order so a search pages like the list. Keys added before
// the hash was recorded keep a null one. The licence-keys projector's createTables makes the same on a rebuild.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema of their day, not today's types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE licence_keys ADD COLUMN IF NOT EXISTS tail_hash text`.execute(db);
  await sql`
    CREATE INDEX IF NOT EXISTS licence_keys_tail_added_idx ON licence_keys (tail_hash, added_at, id)`.execute(
    db,
  );
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS licence_keys_tail_added_idx`.execute(db);
  await sql`ALTER TABLE licence_keys DROP COLUMN IF EXISTS tail_hash`.execute(db);
}
