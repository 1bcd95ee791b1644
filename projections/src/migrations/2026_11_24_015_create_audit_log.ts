import { type Kysely, sql } from 'kysely';

// Frozen: a change to the read schema is a new migration (or, for a projector's own tables, a version bump).
// The `audit-log` projector's tables, as its createTables made them that day.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema of their day, not today's types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE audit_log (
      position       text PRIMARY KEY,
      event_id       text NOT NULL,
      stream         text NOT NULL,
      revision       bigint NOT NULL,
      type           text NOT NULL,
      recorded_at    timestamptz NOT NULL,
      actor_type     text NOT NULL,
      actor_id       text NOT NULL,
      correlation_id text NOT NULL,
      causation_id   text NOT NULL,
      order_id       uuid,
      data           jsonb NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX audit_log_type_idx ON audit_log (type, position)`.execute(db);
  await sql`CREATE INDEX audit_log_actor_idx ON audit_log (actor_id, position)`.execute(db);
  await sql`CREATE INDEX audit_log_order_idx ON audit_log (order_id, position) WHERE order_id IS NOT NULL`.execute(
    db,
  );
  await sql`CREATE INDEX audit_log_correlation_idx ON audit_log (correlation_id, position)`.execute(db);
  await sql`CREATE INDEX audit_log_recorded_at_idx ON audit_log (recorded_at, position)`.execute(db);
  await sql`
    CREATE TABLE audit_log_products (
      product_id uuid NOT NULL,
      position   text NOT NULL,
      PRIMARY KEY (product_id, position)
    )`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('audit_log_products').execute();
  await db.schema.dropTable('audit_log').execute();
}
