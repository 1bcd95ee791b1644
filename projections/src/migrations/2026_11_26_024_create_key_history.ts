import { type Kysely, sql } from 'kysely';

// Frozen: a change to the read schema is a new migration (or, for a projector's own tables, a version bump).
// The `key-history` projector's table, as its createTables made it that day.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema of their day, not today's types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE key_history (
      key_id         uuid NOT NULL,
      position       text NOT NULL,
      stream         text NOT NULL,
      event_type     text NOT NULL,
      kind           text NOT NULL,
      order_id       uuid,
      at             timestamptz NOT NULL,
      actor_type     text NOT NULL,
      actor_id       text NOT NULL,
      correlation_id text NOT NULL,
      details        jsonb NOT NULL,
      PRIMARY KEY (key_id, position)
    )`.execute(db);
  await sql`CREATE INDEX key_history_order_idx ON key_history (order_id, kind) WHERE order_id IS NOT NULL`.execute(
    db,
  );
  await sql`CREATE INDEX key_history_batch_idx ON key_history (correlation_id) WHERE kind = 'imported'`.execute(
    db,
  );
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('key_history').execute();
}
