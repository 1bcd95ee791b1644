import { NotFoundError, type OrderCommand, orderDecider, orderStream } from '@licensestore/shared';
import { handleCommand } from '@licensestore/shared/commands';
import type { DatabaseHandle } from '@licensestore/shared/db';
import type { EventStore } from '@licensestore/shared/eventstore';
import type { KeyVault } from '@licensestore/shared/key-vault';
import type { Logger } from '@licensestore/shared/logging';
import { type Request, type Response, Router } from 'express';
import { z } from 'zod';
import { adminCommandMetadata, requireAdmin, requireBackOffice } from '../auth/guards.js';
import { isUuid } from '../http/ids.js';
import { awaitReadModel } from '../http/read-your-writes.js';
import { parseRequest } from '../http/validation.js';
import { keyRevealer, revealFor } from '../licence-keys/reveal.js';
import { orderEventsRoute } from './events-route.js';
import { orderItemViews } from './item-views.js';
import { OrderWatch } from './order-watch.js';
import { findOrder, listOrderItems, listOrders } from './queries.js';
import { orderTimeline } from './timeline.js';

/** What an admin may set; processing and refunded follow from payments and deliveries. */
const ADMIN_STATUSES = ['pending', 'completed', 'cancelled'] as const;

const statusChangeSchema = z.object({
  status: z.enum(ADMIN_STATUSES, { error: `must be one of ${ADMIN_STATUSES.join(', ')}` }),
});

const orderNotFound = () => new NotFoundError('Order not found');

/** Route ids that are not UUIDs name no order. */
const orderId = (req: Request) => {
  const id = req.params.id;
  if (!isUuid(id)) throw orderNotFound();
  return id.toLowerCase();
};

/** Orders carry names, e-mail addresses and licence keys: no cache anywhere keeps them. */
const privateJson = (res: Response, body: unknown) => {
  res.set('Cache-Control', 'no-store');
  res.json(body);
};

export interface OrderRoutesDeps {
  database: DatabaseHandle;
  eventStore: EventStore;
  logger: Logger;
  keyVault: KeyVault;
  /** Aborted when the server shuts down: open order event streams end, so the server can close. */
  closing?: AbortSignal;
}

/**
 * Orders. One order and its items, keys in clear, are open to whoever holds its id (a random UUID: the
 * confirmation link is a capability; an auditor's session gets them masked); the list of every order and the
 * timeline are for the back office, the commands for admins only.
 */
export function orderRoutes({ database, eventStore, logger, keyVault, closing }: OrderRoutesDeps): Router {
  const router = Router();
  const { db } = database;
  const reveal = keyRevealer(keyVault, logger);
  const watch = new OrderWatch({
    database,
    logger,
    loadSnapshot: async (id) => {
      const order = await findOrder(db, id);
      return order && { order, items: orderItemViews(order.id, await listOrderItems(db, order.id), reveal) };
    },
  });
  closing?.addEventListener('abort', () => void watch.close(), { once: true });

  const execute = (req: Request, command: OrderCommand) =>
    handleCommand(eventStore, orderStream(command.orderId), orderDecider, command, adminCommandMetadata(req));

  router.get('/orders', requireBackOffice, async (_req, res) => {
    privateJson(res, await listOrders(db));
  });

  router.get('/orders/:orderId', async (req, res) => {
    const order = await findOrder(db, req.params.orderId);
    if (!order) throw orderNotFound();
    privateJson(res, order);
  });

  router.get('/orders/:orderId/items', async (req, res) => {
    const order = await findOrder(db, req.params.orderId);
    if (!order) throw orderNotFound();
    privateJson(res, orderItemViews(order.id, await listOrderItems(db, order.id), revealFor(req, reveal)));
  });

  router.get('/orders/:orderId/events', orderEventsRoute(watch));

  router.get('/orders/:id/timeline', requireBackOffice, async (req, res) => {
    const timeline = await orderTimeline({ eventStore, db }, orderId(req), reveal);
    if (!timeline) throw orderNotFound();
    privateJson(res, timeline);
  });

  router.patch('/orders/:id/status', requireAdmin, async (req, res) => {
    const id = orderId(req);
    const { status } = parseRequest(statusChangeSchema, req.body);
    const outcome = await execute(req, {
      type: 'ChangeOrderStatus',
      orderId: id,
      to: status,
      now: new Date().toISOString(),
    });
    // Unchanged (already that status) waits too: the status it has may have been set a moment ago.
    if (outcome.position) await awaitReadModel(database.pool, outcome.position, ['orders'], logger);
    const order = await findOrder(db, id);
    if (!order) throw orderNotFound();
    privateJson(res, order);
  });

  router.post('/orders/:id/delivery-email', requireAdmin, async (req, res) => {
    const requestedAt = new Date().toISOString();
    await execute(req, { type: 'RequestDeliveryEmailResend', orderId: orderId(req), now: requestedAt });
    res.status(202).json({ requestedAt });
  });

  return router;
}
