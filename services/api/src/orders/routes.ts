import { NotFoundError } from '@licensestore/shared';
import type { Database } from '@licensestore/shared/db';
import { type Response, Router } from 'express';
import type { Kysely } from 'kysely';
import { requireAdmin } from '../auth/guards.js';
import { findOrder, listOrderItems, listOrders } from './queries.js';

const orderNotFound = () => new NotFoundError('Order not found');

/** Orders carry names and e-mail addresses: no cache anywhere keeps them. */
const privateJson = (res: Response, body: unknown) => {
  res.set('Cache-Control', 'no-store');
  res.json(body);
};

/**
 * Orders. One order and its items are open to whoever holds its id (a random UUID: the confirmation link is a
 * capability); the list of every order is for admins only.
 */
export function orderRoutes(db: Kysely<Database>): Router {
  const router = Router();

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
    privateJson(res, await listOrderItems(db, order.id));
  });

  return router;
}
