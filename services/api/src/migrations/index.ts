import type { Database } from '@licensestore/shared/db';
import { type Kysely, type Migration, Migrator } from 'kysely';
import * as adminUsers from './2026-11-22-admin-users.js';
import * as adminUserRoles from './2026-11-24-admin-user-roles.js';
import * as auditVerifications from './2026-11-24-audit-verifications.js';
import * as adminUsernameKeys from './2026-11-26-admin-username-keys.js';
import * as teamListIndexes from './2026-11-26-team-list-indexes.js';

const migrations: Record<string, Migration> = {
  '2026-11-22-admin-users': adminUsers,
  '2026-11-24-admin-user-roles': adminUserRoles,
  '2026-11-24-audit-verifications': auditVerifications,
  '2026-11-26-admin-username-keys': adminUsernameKeys,
  '2026-11-26-team-list-indexes': teamListIndexes,
};

/**
 * The API's own state tables (auth), versioned apart from the read model so either side migrates on its own
 * schedule. Concurrent starts are safe: kysely serialises migrators on the lock table.
 */
export async function migrateApi(db: Kysely<Database>): Promise<void> {
  const { error, results } = await apiMigrator(db).migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName;
    // The cause's own words: a migration that refuses (usernames that clash) says what a person must do.
    const reason = error instanceof Error ? `: ${error.message}` : '';
    throw new Error(`API migration ${failed ?? ''} failed${reason}`, { cause: error });
  }
}

/** The API's migrations and where it records them; migrateApi runs them all, a test may stop at one. */
export const apiMigrator = (db: Kysely<Database>) =>
  new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: 'api_migrations',
    migrationLockTableName: 'api_migrations_lock',
  });
