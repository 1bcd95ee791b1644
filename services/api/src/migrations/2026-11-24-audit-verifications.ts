import { type Kysely, sql } from 'kysely';

// Frozen: a migration that has run never changes; add a new file instead.

/** Back-office verifications of the read models: the API records a run, the workers its progress and outcome. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('audit_verifications')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('status', 'text', (col) =>
      col.notNull().check(sql`status IN ('queued', 'running', 'passed', 'failed', 'error')`),
    )
    .addColumn('requested_by', 'text', (col) => col.notNull())
    .addColumn('requested_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('started_at', 'timestamptz')
    .addColumn('finished_at', 'timestamptz')
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('progress', 'jsonb')
    .addColumn('report', 'jsonb')
    .addColumn('error', 'text')
    .execute();
  await db.schema
    .createIndex('audit_verifications_requested_at_idx')
    .on('audit_verifications')
    .columns(['requested_at desc'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_verifications').execute();
}
