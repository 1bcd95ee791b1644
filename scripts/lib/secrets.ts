import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** `$DATA_DIR/secrets`: owner-only directory of generated secrets, one file each. */
export const secretsDir = (dataDir: string) => join(dataDir, 'secrets');

/**
 * The secret in `$DATA_DIR/secrets/<name>`, generated on first use and reused on every later start (mode 600 in a
 * mode 700 directory). Creation is exclusive, so two processes starting at once end up with the same value.
 */
export async function ensureSecret(dataDir: string, name: string, bytes = 48): Promise<string> {
  const dir = secretsDir(dataDir);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  const file = join(dir, name);
  try {
    await writeFile(file, `${randomBytes(bytes).toString('base64url')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const value = (await readFile(file, 'utf8')).trim();
  if (value.length < 32)
    throw new Error(`${file} holds a secret shorter than 32 characters; delete it to regenerate`);
  return value;
}

export const SESSION_SECRET_FILE = 'session-secret';

/** SESSION_SECRET from the environment when set, otherwise the one kept in DATA_DIR. */
export const resolveSessionSecret = (dataDir: string, configured: string | undefined) =>
  configured ? Promise.resolve(configured) : ensureSecret(dataDir, SESSION_SECRET_FILE);

/** The name existing DATA_DIRs keep the secret under, in the spelling of their day. */
export const LICENSE_KEY_SECRET_FILE = 'licence-key-secret';

/**
 * LICENSE_KEY_SECRET from the environment when set, otherwise the one kept in DATA_DIR. Losing it makes every
 * stored license key unreadable: back it up with the database.
 */
export const resolveLicenseKeySecret = (dataDir: string, configured: string | undefined) =>
  configured ? Promise.resolve(configured) : ensureSecret(dataDir, LICENSE_KEY_SECRET_FILE);

/** The embedded Postgres superuser's password (`npm start` without DATABASE_URL): in DATABASE_URL of stack.env. */
export const POSTGRES_PASSWORD_FILE = 'postgres-password';

/** The local redis-server's `requirepass` (`npm start` without REDIS_URL): in REDIS_URL of stack.env. */
export const REDIS_PASSWORD_FILE = 'redis-password';
