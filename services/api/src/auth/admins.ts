import { type BackOfficeRole, usernameKey } from '@licensestore/domain/back-office';
import { ConfigError } from '@licensestore/platform/config';
import type { Database } from '@licensestore/platform/db';
import { timeOrderedId } from '@licensestore/platform/ids';
import type { Logger } from '@licensestore/platform/logging';
import { type Kysely, sql } from 'kysely';
import { passwordWeakness } from './password-strength.js';
import { generatePassword, hashPassword } from './passwords.js';

export interface AdminCredentials {
  id: string;
  username: string;
  passwordHash: string;
  role: BackOfficeRole;
}

/** Usernames compare by their key, whatever their letter case or character width (a unique index backs this). */
export async function findAdminByUsername(
  db: Kysely<Database>,
  username: string,
): Promise<AdminCredentials | null> {
  const row = await db
    .selectFrom('admin_users')
    .select(['id', 'username', 'password_hash', 'role'])
    .where('username_key', '=', usernameKey(username))
    .executeTakeFirst();
  return row ? { id: row.id, username: row.username, passwordHash: row.password_hash, role: row.role } : null;
}

export type FirstAdminOutcome =
  | { created: false }
  | { created: true; username: string; generatedPassword: boolean };

/**
 * Seeds the first admin when there is none, from ADMIN_USERNAME / ADMIN_PASSWORD. Without a configured password a
 * random one is generated and logged once; it is never stored anywhere but as its hash. A configured password easy to
 * guess is refused (a ConfigError) when it would create the admin, not once one exists. Safe to run from several
 * instances at once: only the one whose insert lands reports (and prints) anything.
 */
export async function ensureFirstAdmin(
  db: Kysely<Database>,
  options: { username: string; password?: string | undefined },
  logger: Logger,
): Promise<FirstAdminOutcome> {
  const existing = await db.selectFrom('admin_users').select('id').limit(1).executeTakeFirst();
  if (existing) return { created: false };

  const weakness = options.password && passwordWeakness(options.password);
  if (weakness) throw new ConfigError([`ADMIN_PASSWORD: ${weakness}`]);
  const password = options.password ?? generatePassword();
  const passwordHash = await hashPassword(password);
  const { rows } = await sql<{ id: string }>`
    INSERT INTO admin_users (id, username, username_key, password_hash)
    SELECT ${timeOrderedId()}::uuid, ${options.username}, ${usernameKey(options.username)}, ${passwordHash}
    WHERE NOT EXISTS (SELECT 1 FROM admin_users)
    ON CONFLICT DO NOTHING
    RETURNING id`.execute(db);
  if (rows.length === 0) return { created: false };

  if (options.password) {
    logger.info(
      { username: options.username },
      'created the first admin user from ADMIN_USERNAME / ADMIN_PASSWORD',
    );
    return { created: true, username: options.username, generatedPassword: false };
  }
  logger.warn(
    { username: options.username },
    `No ADMIN_PASSWORD was set: created admin "${options.username}" with the generated password ${password} ` +
      '(shown only this once; sign in at /admin/login, or set ADMIN_PASSWORD before the first start to choose one)',
  );
  return { created: true, username: options.username, generatedPassword: true };
}
