import { type Kysely, sql } from 'kysely';

// Frozen: a change to the read schema is a new migration.
// Snapshots of the dashboard's fold over a prefix of the log, for the dashboard as of a moment (ADR 015). Not a
// projector's table: the API writes them as its folds pass them, and they stay valid, since the log before them
// never changes; `fold_version` tells the snapshots of other fold rules apart.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema of their day, not today's types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE dashboard_as_of_snapshots (
      position           text NOT NULL,
      fold_version       text NOT NULL,
      events             bigint NOT NULL,
      latest_recorded_at timestamptz NOT NULL,
      state              jsonb NOT NULL,
      PRIMARY KEY (position, fold_version)
    )`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('dashboard_as_of_snapshots').execute();
}
