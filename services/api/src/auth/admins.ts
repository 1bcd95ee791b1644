import { randomUUID } from 'node:crypto';
import type { BackOfficeRole } from '@licensestore/shared/back-office';
import type { Database } from '@licensestore/shared/db';
import type { Logger } from '@licensestore/shared/logging';
import { type Kysely, sql } from 'kysely';
import { generatePassword, hashPassword } from './passwords.js';

export interface AdminCredentials {
  id: string;
  username: string;
  passwordHash: string;
  role: BackOfficeRole;
}

/** Usernames compare case-insensitively (a unique index on lower(username) backs this). */
export async function findAdminByUsername(
  db: Kysely<Database>,
  username: string,
): Promise<AdminCredentials | null> {
  const row = await db
    .selectFrom('admin_users')
    .select(['id', 'username', 'password_hash', 'role'])
    .where(sql<string>`lower(username)`, '=', username.toLowerCase())
    .executeTakeFirst();
  return row ? { id: row.id, username: row.username, passwordHash: row.password_hash, role: row.role } : null;
}

export type FirstAdminOutcome =
  | { created: false }
  | { created: true; username: string; generatedPassword: boolean };

/**
 * Seeds the first admin when there is none, from ADMIN_USERNAME / ADMIN_PASSWORD. Without a configured password a
 * random one is generated and logged once; it is never stored anywhere but as its hash. Safe to run from several
 * instances at once: only the one whose insert lands reports (and prints) anything.
 */
export async function ensureFirstAdmin(
  db: Kysely<Database>,
  options: { username: string; password?: string | undefined },
  logger: Logger,
): Promise<FirstAdminOutcome> {
  const existing = await db.selectFrom('admin_users').select('id').limit(1).executeTakeFirst();
  if (existing) return { created: false };

  const password = options.password ?? generatePassword();
  const passwordHash = await hashPassword(password);
  const { rows } = await sql<{ id: string }>`
    INSERT INTO admin_users (id, username, password_hash)
    SELECT ${randomUUID()}::uuid, ${options.username}, ${passwordHash}
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
    { username: options.username, password },
    `No ADMIN_PASSWORD was set: created admin "${options.username}" with the generated password ${password} ` +
      '(shown only this once; sign in at /admin/login, or set ADMIN_PASSWORD before the first start to choose one)',
  );
  return { created: true, username: options.username, generatedPassword: true };
}
