import { type Kysely, sql } from 'kysely';

// Frozen: a migration that has run never changes; add a new file instead.

/** The username rule as this migration applies it (usernameKey in shared/back-office): NFKC, then case-folded. */
const keyOf = (username: string) => username.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');

/**
 * Usernames become unique by their key (letter case and character width ignored: `ａｄｍｉｎ` is `admin`), no longer by
 * lower(username) alone. Two existing users whose names share a key stop the migration, naming them: which one keeps
 * the name is for a person to decide (rename or delete one with SQL), never for a migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('admin_users').addColumn('username_key', 'text').execute();
  const { rows } = await sql<{ id: string; username: string }>`SELECT id, username FROM admin_users`.execute(
    db,
  );
  const byKey = new Map<string, string[]>();
  for (const { username } of rows)
    byKey.set(keyOf(username), [...(byKey.get(keyOf(username)) ?? []), username]);
  const clashes = [...byKey.values()].filter((names) => names.length > 1);
  if (clashes.length > 0) {
    const named = clashes.map((names) => names.map((name) => JSON.stringify(name)).join(' and ')).join('; ');
    throw new Error(
      `back-office usernames that differ only in letter case or character width: ${named}. ` +
        'Rename or delete all but one of each in the admin_users table, then start again.',
    );
  }
  for (const { id, username } of rows) {
    await sql`UPDATE admin_users SET username_key = ${keyOf(username)} WHERE id = ${id}`.execute(db);
  }
  await sql`ALTER TABLE admin_users ALTER COLUMN username_key SET NOT NULL`.execute(db);
  await db.schema
    .createIndex('admin_users_username_key_unique')
    .on('admin_users')
    .column('username_key')
    .unique()
    .execute();
  await db.schema.dropIndex('admin_users_username_key').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('admin_users_username_key')
    .on('admin_users')
    .unique()
    .expression(sql`lower(username)`)
    .execute();
  await db.schema.alterTable('admin_users').dropColumn('username_key').execute();
}
