import {
  type BackOfficeUserView,
  newBackOfficeUserRequestSchema,
  type TeamFilters,
} from '@licensestore/contract/back-office';
import type { Page } from '@licensestore/contract/paging';
import { AppError, ForbiddenError, NotFoundError } from '@licensestore/domain';
import { usernameKey } from '@licensestore/domain/back-office';
import type { Database } from '@licensestore/platform/db';
import { timeOrderedId } from '@licensestore/platform/ids';
import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import { type Keyset, keysetPage, mapPage, type PageParams } from '../http/paging.js';
import { usernameSkeleton } from './lookalikes.js';
import { passwordWeakness } from './password-strength.js';
import { hashPassword } from './passwords.js';

/** A new user as the contract reads it, with a password no estimator finds easy to guess. */
export const newUserSchema = newBackOfficeUserRequestSchema.extend({
  password: newBackOfficeUserRequestSchema.shape.password.pipe(
    z.string().check((context) => {
      const weakness = passwordWeakness(context.value);
      if (weakness) context.issues.push({ code: 'custom', input: context.value, message: weakness });
    }),
  ),
});
export type NewUser = z.output<typeof newUserSchema>;

/** Postgres' unique_violation: here always the username_key index. */
const UNIQUE_VIOLATION = '23505';

export class UsernameTakenError extends AppError {
  constructor(username: string) {
    super(409, `A user named "${username}" already exists (usernames ignore case and character width)`);
  }
}

export class UsernameLookalikeError extends AppError {
  constructor(username: string, existing: string) {
    super(
      409,
      `"${username}" looks like the existing user "${existing}": choose a username nobody could mistake for another`,
    );
  }
}

const toView = (row: {
  id: string;
  username: string;
  role: BackOfficeUserView['role'];
  created_at: Date;
}) => ({
  id: row.id,
  username: row.username,
  role: row.role,
  createdAt: row.created_at.toISOString(),
});

/** Every back-office user, oldest first: the first admin heads the list. */
export async function listBackOfficeUsers(db: Kysely<Database>): Promise<BackOfficeUserView[]> {
  const rows = await db
    .selectFrom('admin_users')
    .select(['id', 'username', 'role', 'created_at'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toView);
}

type UserRow = Parameters<typeof toView>[0];

/** The Team screen's order: oldest first (the first admin heads it), by `admin_users_created_idx`. */
export const teamKeyset: Keyset<UserRow, 'created'> = {
  sorts: { created: { column: 'created_at', type: 'timestamp', of: (row) => row.created_at } },
  id: { column: 'id', type: 'uuid', of: (row) => row.id },
  defaultSort: 'created',
  defaultDir: 'asc',
};

/** One page of the back-office users. */
export async function listTeamPage(
  db: Kysely<Database>,
  filters: TeamFilters,
  page: PageParams<'created'>,
): Promise<Page<BackOfficeUserView>> {
  let query = db.selectFrom('admin_users').select(['id', 'username', 'role', 'created_at']);
  if (filters.role) query = query.where('role', '=', filters.role);
  return mapPage(await keysetPage(query, teamKeyset, page), toView);
}

/**
 * Stores only the password's hash. A username taken in any letter case or character width is a 409, and so is one
 * that looks like a user's (the same confusable skeleton): users are compared under a lock, so two look-alikes
 * created at once cannot both pass.
 */
export async function createBackOfficeUser(db: Kysely<Database>, user: NewUser): Promise<BackOfficeUserView> {
  const passwordHash = await hashPassword(user.password);
  try {
    return await db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(hashtext('admin_users: new username'))`.execute(trx);
      const skeleton = usernameSkeleton(user.username);
      const key = usernameKey(user.username);
      const users = await trx.selectFrom('admin_users').select('username').execute();
      const twin = users.find(
        (other) => usernameSkeleton(other.username) === skeleton && usernameKey(other.username) !== key,
      );
      if (twin) throw new UsernameLookalikeError(user.username, twin.username);
      const row = await trx
        .insertInto('admin_users')
        .values({
          id: timeOrderedId(),
          username: user.username,
          username_key: key,
          password_hash: passwordHash,
          role: user.role,
        })
        .returning(['id', 'username', 'role', 'created_at'])
        .executeTakeFirstOrThrow();
      return toView(row);
    });
  } catch (error) {
    if ((error as { code?: unknown }).code === UNIQUE_VIOLATION) throw new UsernameTakenError(user.username);
    throw error;
  }
}

/**
 * Deletes a user on behalf of `actorId`. Nobody deletes themselves and the actor must still be an admin, so an admin
 * is always left: the admins' rows are locked first, so two admins deleting each other at once cannot both succeed
 * (the second finds it is no longer an admin).
 */
export async function deleteBackOfficeUser(
  db: Kysely<Database>,
  { id, actorId }: { id: string; actorId: string },
): Promise<void> {
  if (id === actorId) throw new AppError(409, 'You cannot delete your own account');
  await db.transaction().execute(async (trx) => {
    const admins = await trx
      .selectFrom('admin_users')
      .select('id')
      .where('role', '=', 'admin')
      .forUpdate()
      .execute();
    if (!admins.some((admin) => admin.id === actorId)) throw new ForbiddenError('Admin access required');
    const deleted = await trx.deleteFrom('admin_users').where('id', '=', id).executeTakeFirst();
    if (deleted.numDeletedRows === 0n) throw new NotFoundError('User not found');
  });
}
