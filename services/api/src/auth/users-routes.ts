import { teamFiltersSchema } from '@licensestore/contract/back-office';
import { NotFoundError } from '@licensestore/domain';
import type { Database } from '@licensestore/platform/db';
import { Router } from 'express';
import type { Kysely } from 'kysely';
import { isUuid } from '../http/ids.js';
import { parsePageQuery } from '../http/paging.js';
import { parseRequest } from '../http/validation.js';
import {
  createBackOfficeUser,
  deleteBackOfficeUser,
  listBackOfficeUsers,
  listTeamPage,
  teamKeyset,
} from './back-office-users.js';
import { requireAdmin, signedInAdmin } from './guards.js';
import { readNewUser } from './new-user-request.js';
import type { SessionStore } from './sessions.js';

/**
 * The Team screen's API, for admins only: auditors change nothing, and the list of who may sign in is not theirs
 * to read either.
 */
export function backOfficeUserRoutes({
  db,
  sessions,
}: {
  db: Kysely<Database>;
  sessions: SessionStore;
}): Router {
  const router = Router();

  router.get('/admin/users', requireAdmin, async (_req, res) => {
    res.set('Cache-Control', 'no-store').json(await listBackOfficeUsers(db));
  });

  // The Team screen's list, a page at a time.
  router.get('/admin/team', requireAdmin, async (req, res) => {
    const page = parsePageQuery(teamKeyset, req.query);
    const filters = parseRequest(teamFiltersSchema, req.query);
    res.set('Cache-Control', 'no-store').json(await listTeamPage(db, filters, page));
  });

  router.post('/admin/users', requireAdmin, async (req, res) => {
    const newUser = readNewUser(req, res);
    if (!newUser) return;
    res.status(201).json(await createBackOfficeUser(db, newUser));
  });

  router.delete('/admin/users/:id', requireAdmin, async (req, res) => {
    if (!isUuid(req.params.id)) throw new NotFoundError('User not found');
    const id = req.params.id.toLowerCase();
    await deleteBackOfficeUser(db, { id, actorId: signedInAdmin(req) });
    // Signed in somewhere right now: that session ends with the account.
    await sessions.revokeSubject(id);
    res.status(204).end();
  });

  return router;
}
