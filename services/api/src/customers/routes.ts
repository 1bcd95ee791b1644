import type { Database } from '@licensestore/shared/db';
import { Router } from 'express';
import type { Kysely } from 'kysely';
import { requireBackOffice } from '../auth/guards.js';
import { listCustomers } from './queries.js';

export function customerRoutes(db: Kysely<Database>): Router {
  const router = Router();
  router.get('/customers', requireBackOffice, async (_req, res) => {
    res.set('Cache-Control', 'no-store').json(await listCustomers(db));
  });
  return router;
}
