import type { Database } from '@licensestore/platform/db';
import { Router } from 'express';
import type { Kysely } from 'kysely';
import { requireBackOffice } from '../auth/guards.js';
import { dashboardSummary } from './queries.js';

export function dashboardRoutes(db: Kysely<Database>, lowStockThreshold: number): Router {
  const router = Router();
  router.get('/admin/dashboard', requireBackOffice, async (_req, res) => {
    res.set('Cache-Control', 'no-store').json(await dashboardSummary(db, lowStockThreshold));
  });
  return router;
}
