import type { Database } from '@licensestore/platform/db';
import type { Kysely } from 'kysely';
import { isUuid } from '../http/ids.js';

/**
 * The usernames of these back-office users, by id, in one query: events and read models record who acted by id,
 * which tells a person nothing. A user removed since is absent.
 */
export async function adminUsernames(
  db: Kysely<Database>,
  ids: readonly string[],
): Promise<Map<string, string>> {
  const wanted = [...new Set(ids)].filter(isUuid);
  if (wanted.length === 0) return new Map();
  const rows = await db
    .selectFrom('admin_users')
    .select(['id', 'username'])
    .where('id', 'in', wanted)
    .execute();
  return new Map(rows.map((row) => [row.id, row.username]));
}
