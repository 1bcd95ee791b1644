// The dashboard's own folds, so the figures of the past cannot drift from the live ones (ADR 015).
import type { KeyObject } from 'node:crypto';
import { asOfQuerySchema, auditEventsQuerySchema } from '@licensestore/contract/audit';
import { NotFoundError } from '@licensestore/domain';
import type { ParkedEventsView } from '@licensestore/domain/audit';
import type { EventStore } from '@licensestore/domain/events';
import type { DatabaseHandle } from '@licensestore/platform/db';
import type { KeyVault } from '@licensestore/platform/key-vault';
import type { Logger } from '@licensestore/platform/logging';
import { parkedEventsPage } from '@licensestore/platform/parked-events';
import { dashboardAsOf } from '@licensestore/platform/readmodel';
import { type Response, Router } from 'express';
import { requireBackOffice } from '../auth/guards.js';
import { isUuid } from '../http/ids.js';
import { parseRequest } from '../http/validation.js';
import { keyRevealer } from '../license-keys/reveal.js';
import { listAuditEvents } from './event-log.js';
import { orderAsOfView } from './order-as-of.js';
import { periodExportRoutes } from './period-export.js';

export interface AuditRoutesDeps {
  database: DatabaseHandle;
  eventStore: EventStore;
  keyVault: KeyVault;
  logger: Logger;
  lowStockThreshold: number;
  /** The audit export's Ed25519 key (AUDIT_SIGNING_KEY, as `npm run audit:export` reads it); unset, no export. */
  signingKey?: KeyObject | undefined;
}

const PARKED_EVENTS_SHOWN = 200;

const privateJson = (res: Response, body: unknown) => {
  res.set('Cache-Control', 'no-store').json(body);
};

const orderNotFound = () => new NotFoundError('Order not found');

/** Route ids that are not UUIDs name no order. */
const orderId = (id: string | undefined) => {
  if (!isUuid(id)) throw orderNotFound();
  return id.toLowerCase();
};

/**
 * The auditors' reads (admins see them too): the store-wide log, its signed export for a period, and state as of a
 * moment. An order's own history
 * is its timeline (GET /api/orders/:id/timeline), which follows the order's correlations.
 */
export function auditRoutes({
  database,
  eventStore,
  keyVault,
  logger,
  lowStockThreshold,
  signingKey,
}: AuditRoutesDeps): Router {
  const router = Router();
  const reveal = keyRevealer(keyVault, logger);
  router.use('/audit', requireBackOffice);
  router.use(periodExportRoutes({ eventStore, signingKey }));

  router.get('/audit/events', async (req, res) => {
    privateJson(res, await listAuditEvents(database.db, parseRequest(auditEventsQuerySchema, req.query)));
  });

  router.get('/audit/orders/:id/as-of', async (req, res) => {
    const { at } = parseRequest(asOfQuerySchema, req.query);
    const order = await orderAsOfView(eventStore, orderId(req.params.id), at, reveal);
    if (!order) throw new NotFoundError(`Order not found as of ${at.toISOString()}`);
    privateJson(res, order);
  });

  // Each is a defect to look at, so there are few; the first page says how many there are in all.
  router.get('/audit/parked-events', async (_req, res) => {
    privateJson(res, (await parkedEventsPage(database.db, PARKED_EVENTS_SHOWN)) satisfies ParkedEventsView);
  });

  router.get('/audit/dashboard/as-of', async (req, res) => {
    const { at } = parseRequest(asOfQuerySchema, req.query);
    privateJson(
      res,
      await dashboardAsOf({ eventStore, db: database.db }, at, { lowStockThreshold, log: logger }),
    );
  });

  return router;
}
