import { type Database, migrateToLatest, migratorFor } from '@licensestore/platform/db';
import { migrateParkedEvents } from '@licensestore/platform/parked-events';
import type { Kysely, Migration } from 'kysely';
import { createMissingTables } from '../projector.js';
import { allProjectors } from '../projectors.js';
import * as m20261206001 from './2026_12_06_001_tables_no_projector_owns.js';
import * as m20261206002 from './2026_12_06_002_license_spelling.js';

/**
 * The read schema's migrations, by frozen name: only the tables no projector owns. An explicit map (not a folder
 * scan) so bundling cannot drop one.
 */
const migrations: Record<string, Migration> = {
  '2026_12_06_001_tables_no_projector_owns': m20261206001,
  '2026_12_06_002_license_spelling': m20261206002,
};

/** Its own ledger: kysely's default one holds the earlier migrations, which made projectors' tables too. */
export const readModelMigrator = (db: Kysely<Database>) =>
  migratorFor(db, migrations, 'read_model_migrations');

/**
 * Brings the read schema up to date: the tables no projector owns, the table of parked events the projectors write
 * to, and the tables of each projector that has none yet, from its own definition. Safe to call from several
 * processes at once; throws the first failure.
 */
export async function migrateReadModel(db: Kysely<Database>): Promise<void> {
  await migrateToLatest(readModelMigrator(db), 'read-model');
  await migrateParkedEvents(db);
  await createMissingTables(db, allProjectors);
}
