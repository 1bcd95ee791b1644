import { type Kysely, sql } from 'kysely';

// Frozen: a migration that has run never changes; add a new file instead.

/**
 * The Team screen's paged list, oldest first: by itself, and within one role. A page's cursor carries the time as
 * ISO text, to the millisecond; a time stored finer would not name its row exactly, so times are stored to the
 * millisecond from now on (and the few already there rounded down to it).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE admin_users ALTER COLUMN created_at SET DEFAULT date_trunc('milliseconds', now())`.execute(
    db,
  );
  await sql`UPDATE admin_users SET created_at = date_trunc('milliseconds', created_at)`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS admin_users_created_idx ON admin_users (created_at, id)`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS admin_users_role_created_idx ON admin_users (role, created_at, id)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS admin_users_role_created_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS admin_users_created_idx`.execute(db);
  await sql`ALTER TABLE admin_users ALTER COLUMN created_at SET DEFAULT now()`.execute(db);
}
