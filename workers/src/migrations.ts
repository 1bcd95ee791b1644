import { migrateToLatest, migratorFor } from '@licensestore/platform/db';
import { migrateParkedEvents } from '@licensestore/platform/parked-events';
import { type Kysely, type Migration, sql } from 'kysely';

/** Frozen: never edit a migration that has run; add a new one. Names sort in the order they apply. */
const migrations: Record<string, Migration> = {
  '2026-11-22-01-reactor-checkpoints': {
    async up(db) {
      await db.schema
        .createTable('reactor_checkpoints')
        .addColumn('name', 'text', (col) => col.primaryKey())
        .addColumn('position', 'text')
        .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
        .execute();
    },
  },
  // A job the reactor derived and no worker has finished yet; the rows left are the work a Redis loss would lose.
  '2026-11-26-50-reactor-job-intents': {
    async up(db) {
      await db.schema
        .createTable('reactor_job_intents')
        .addColumn('queue', 'text', (col) => col.notNull())
        .addColumn('job_id', 'text', (col) => col.notNull())
        .addColumn('reactor', 'text', (col) => col.notNull())
        .addColumn('position', 'text', (col) => col.notNull())
        .addColumn('name', 'text', (col) => col.notNull())
        .addColumn('data', 'jsonb', (col) => col.notNull())
        .addColumn('run_at', 'timestamptz', (col) => col.notNull())
        .addPrimaryKeyConstraint('reactor_job_intents_pkey', ['queue', 'job_id'])
        .execute();
      await sql`CREATE INDEX reactor_job_intents_by_position ON reactor_job_intents (reactor, position COLLATE "C")`.execute(
        db,
      );
    },
  },
};

/**
 * The workers role's own tables, tracked apart from the read-model migrations, and the table of parked events its
 * reactor writes to. Safe to run concurrently.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not today's types
export async function migrateWorkers(db: Kysely<any>): Promise<void> {
  await migrateToLatest(migratorFor(db, migrations, 'workers_migrations'), 'workers');
  await migrateParkedEvents(db);
}
