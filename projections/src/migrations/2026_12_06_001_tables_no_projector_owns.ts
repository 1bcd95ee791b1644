import { type Kysely, sql } from 'kysely';

// Frozen: a change to these tables is a new migration. A projector's tables are never made here: its own
// definition makes them (createTables), and a change to it is a version bump that rebuilds them from the log.
// Every statement leaves what a store already has in place: a store the earlier migrations made (recorded in
// kysely's default ledger, `kysely_migration`) has these tables, and its projectors' tables, already.

/** The last of the earlier migrations: a store that ran it has its projectors' tables as they were defined then. */
const LAST_EARLIER_MIGRATION = '2026_12_06_070_count_paid_orders';

/** The projectors of the day, by checkpoint name. */
const PROJECTORS = [
  'products',
  'orders',
  'customers',
  'dashboard',
  'licence-keys',
  'audit-log',
  'key-history',
];

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema of their day, not today's types
async function earlierMigrationsStoppedShort(db: Kysely<any>): Promise<boolean> {
  const ledger = sql`SELECT FROM pg_tables WHERE schemaname = 'public' AND tablename = 'kysely_migration'`;
  if ((await ledger.execute(db)).rows.length === 0) return false;
  const last = await sql`SELECT FROM kysely_migration WHERE name = ${LAST_EARLIER_MIGRATION}`.execute(db);
  return last.rows.length === 0;
}

// biome-ignore lint/suspicious/noExplicitAny: see earlierMigrationsStoppedShort
export async function up(db: Kysely<any>): Promise<void> {
  // A trusted extension (the database's owner may create it) for the back office's trigram searches.
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
  await sql`
    CREATE TABLE IF NOT EXISTS projection_checkpoints (
      name       text PRIMARY KEY,
      position   text,
      version    integer NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`
    CREATE TABLE IF NOT EXISTS testimonials (
      id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      customer_name text NOT NULL,
      rating        smallint NOT NULL CHECK (rating BETWEEN 1 AND 5),
      comment       text NOT NULL,
      location      text NOT NULL,
      date          text NOT NULL
    )`.execute(db);
  // Snapshots of the dashboard's fold over a prefix of the log, for the dashboard as of a moment: the api writes them
  // as its folds pass them, and they stay valid, since the log before them never changes; `fold_version` tells the
  // snapshots of other fold rules apart.
  await sql`
    CREATE TABLE IF NOT EXISTS dashboard_as_of_snapshots (
      position           text NOT NULL,
      fold_version       text NOT NULL,
      events             bigint NOT NULL,
      latest_recorded_at timestamptz NOT NULL,
      state              jsonb NOT NULL,
      PRIMARY KEY (position, fold_version)
    )`.execute(db);
  // A store the earlier migrations left short of their last has projectors' tables of an older shape: each
  // projector is marked as built by no version, so the runner rebuilds its tables from the log before using them.
  if (await earlierMigrationsStoppedShort(db)) {
    await sql`
      INSERT INTO projection_checkpoints (name, position, version)
      SELECT name, NULL, 0 FROM unnest(${PROJECTORS}::text[]) AS name
      ON CONFLICT (name) DO UPDATE SET version = 0, updated_at = now()`.execute(db);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('dashboard_as_of_snapshots').ifExists().execute();
  await db.schema.dropTable('testimonials').ifExists().execute();
  await db.schema.dropTable('projection_checkpoints').ifExists().execute();
}
