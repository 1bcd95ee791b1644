import { type Database, migrateToLatest, migratorFor } from '@licensestore/platform/db';
import type { Kysely, Migration } from 'kysely';
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
export const migrateApi = (db: Kysely<Database>) => migrateToLatest(apiMigrator(db), 'API');

/** The API's migrations and where it records them; migrateApi runs them all, a test may stop at one. */
export const apiMigrator = (db: Kysely<Database>) => migratorFor(db, migrations, 'api_migrations');
