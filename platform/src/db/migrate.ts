import { type Kysely, type Migration, Migrator } from 'kysely';

/**
 * A set of migrations recorded in a table of its own (`<table>` and `<table>_lock`), so each owner migrates on its
 * own schedule; without a table, kysely's default one. Concurrent starts are safe: kysely serialises migrators on the
 * lock table.
 */
export const migratorFor = (
  // biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not today's types
  db: Kysely<any>,
  migrations: Record<string, Migration>,
  table?: string,
) =>
  new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(table ? { migrationTableName: table, migrationLockTableName: `${table}_lock` } : {}),
  });

/**
 * Runs every pending migration, in name order; throws the first failure, named, in the cause's own words (a migration
 * that refuses says what a person must do).
 */
export async function migrateToLatest(migrator: Migrator, owner: string): Promise<void> {
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? `: ${error.message}` : error ? `: ${String(error)}` : '';
    throw new Error(`${owner} migration ${failed?.migrationName ?? ''} failed${reason}`, { cause: error });
  }
}
