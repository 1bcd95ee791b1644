import { type Kysely, sql } from 'kysely';

// Frozen. The code took the spec's spelling, "license", for the license-key tables, their indexes and their
// projector's checkpoint. A store made before keeps its rows: they are renamed, not rebuilt from the log. A store
// with none of the earlier names is left as it is.

const EARLIER = 'licence';
const NOW = 'license';

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema of their day, not today's types
export async function up(db: Kysely<any>): Promise<void> {
  const { rows } = await sql<{ name: string; kind: 'r' | 'i' }>`
    SELECT c.relname AS name, c.relkind AS kind
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'i') AND c.relname LIKE ${`%${EARLIER}%`}`.execute(
    db,
  );
  // Renaming the index behind a primary key renames the constraint with it.
  for (const { name, kind } of rows) {
    await sql`ALTER ${sql.raw(kind === 'r' ? 'TABLE' : 'INDEX')} ${sql.id(name)}
              RENAME TO ${sql.id(name.replaceAll(EARLIER, NOW))}`.execute(db);
  }
  await sql`UPDATE projection_checkpoints SET name = ${`${NOW}-keys`} WHERE name = ${`${EARLIER}-keys`}`.execute(
    db,
  );
  const parked = await sql<{
    found: boolean;
  }>`SELECT to_regclass('parked_events') IS NOT NULL AS found`.execute(db);
  if (parked.rows[0]?.found) {
    await sql`UPDATE parked_events SET consumers = array_replace(consumers, ${`${EARLIER}-keys`}, ${`${NOW}-keys`})`.execute(
      db,
    );
  }
}
