import { NotFoundError, type OrderCommand, orderDecider, orderStream } from '@licensestore/shared';
import { handleCommand } from '@licensestore/shared/commands';
import type { DatabaseHandle } from '@licensestore/shared/db';
import type { EventStore } from '@licensestore/shared/eventstore';
import type { KeyVault } from '@licensestore/shared/key-vault';
import type { Logger } from '@licensestore/shared/logging';
import { type Request, type Response, Router } from 'express';
import { z } from 'zod';
import { adminCommandMetadata, requireAdmin } from '../auth/guards.js';
import { isUuid } from '../http/ids.js';
import { awaitReadModel } from '../http/read-your-writes.js';
import { parseRequest } from '../http/validation.js';
import { keyRevealer } from '../licence-keys/reveal.js';
import { findOrder, listOrderItems, listOrders } from './queries.js';

/** One line of an order as its holder sees it; `licenseKey` is the first key (the spec's shape), null until delivered. */
export interface OrderItemView {
  id: string;
  productName: string;
  quantity: number;
  price: string;
  licenseKey: string | null;
  licenseKeys: string[];
}

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
}

/**
 * Orders. One order and its items, keys in clear, are open to whoever holds its id (a random UUID: the
 * confirmation link is a capability); the list of every order and the admin's commands are for admins only.
 */
export function orderRoutes({ database, eventStore, logger, keyVault }: OrderRoutesDeps): Router {
  const router = Router();
  const { db } = database;
  const reveal = keyRevealer(keyVault, logger);

  const execute = (req: Request, command: OrderCommand) =>
    handleCommand(eventStore, orderStream(command.orderId), orderDecider, command, adminCommandMetadata(req));

  router.get('/orders', requireAdmin, async (_req, res) => {
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
    const items = await listOrderItems(db, order.id);
    const views: OrderItemView[] = items.map(({ sealedKeys, ...item }) => {
      const licenseKeys = sealedKeys.flatMap(
        (sealed) => reveal(sealed, { orderId: order.id, itemId: item.id }) ?? [],
      );
      return { ...item, licenseKey: licenseKeys[0] ?? null, licenseKeys };
    });
    privateJson(res, views);
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
