import type { BuyerOrderMoney } from '@licensestore/contract/orders';
import {
  customerEmailKey,
  NotFoundError,
  type OrderWithItemsView,
  orderDecider,
  orderStream,
  UnauthenticatedError,
} from '@licensestore/domain';
import { handleCommand } from '@licensestore/domain/commands';
import type { EventStore } from '@licensestore/domain/events';
import type { Database } from '@licensestore/platform/db';
import type { KeyVault } from '@licensestore/platform/key-vault';
import type { Logger } from '@licensestore/platform/logging';
import { type Request, Router } from 'express';
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import { keyRevealer } from '../license-keys/reveal.js';
import type { KeyCustody } from '../orders/custody.js';
import { showOrderItems } from '../orders/item-views.js';
import { buyerRefundsOf, findOrder, listBuyerRefunds, listCustomerOrders } from '../orders/queries.js';
import { countResend, type ResendLimit } from './resend-throttle.js';

export interface AccountRoutesDeps {
  db: Kysely<Database>;
  eventStore: EventStore;
  custody: KeyCustody;
  redis: Redis;
  keyVault: KeyVault;
  logger: Logger;
  /** Resends of the delivery e-mail per order and per customer; RESEND_LIMIT unless a test says otherwise. */
  resendLimit?: ResendLimit;
}

/**
 * The signed-in customer's e-mail address (a customer session's subject). An admin session is not a customer: it
 * gets 401 like everyone else, as GET /api/auth/user answers it null.
 */
function signedInCustomerEmail(req: Request): string {
  if (req.session?.kind !== 'customer') throw new UnauthenticatedError('Authentication required');
  return req.session.subjectId;
}

/**
 * GET /api/my-orders: the orders placed with the signed-in customer's address, keys in clear, each
 * order's showing recorded (channel `my-orders`) before the answer leaves.
 * POST /api/my-orders/:orderId/delivery-email: the delivery e-mail of one of them again, throttled.
 */
export function accountRoutes({
  db,
  eventStore,
  custody,
  redis,
  keyVault,
  logger,
  resendLimit,
}: AccountRoutesDeps): Router {
  const router = Router();
  const showing = { custody, reveal: keyRevealer(keyVault, logger) };

  router.get('/my-orders', async (req, res) => {
    const email = signedInCustomerEmail(req);
    const orders = await listCustomerOrders(db, email);
    const access = { keys: 'clear', channel: 'my-orders', viewer: { type: 'customer', id: email } } as const;
    const refunds = await listBuyerRefunds(
      db,
      orders.map((order) => order.id),
    );
    const views: Array<OrderWithItemsView & BuyerOrderMoney> = await Promise.all(
      orders.map(async ({ items, ...order }) => ({
        ...order,
        ...buyerRefundsOf(refunds, order),
        hasAccess: true,
        items: (await showOrderItems(showing, req, order, items, access)).items,
      })),
    );
    // Names, addresses and license keys: no cache anywhere keeps them.
    res.set('Cache-Control', 'no-store').json(views);
  });

  router.post('/my-orders/:orderId/delivery-email', async (req, res) => {
    const email = signedInCustomerEmail(req);
    const order = await findOrder(db, req.params.orderId);
    // Another customer's order is answered as no order at all: its id tells nothing about who bought it.
    if (!order || customerEmailKey(order.customerEmail) !== customerEmailKey(email)) {
      throw new NotFoundError('Order not found');
    }
    await countResend(redis, { orderId: order.id, customerKey: customerEmailKey(email) }, resendLimit);
    const requestedAt = new Date().toISOString();
    // The admin's resend command: cancelled, refunded and still unfulfilled orders refuse it with a sentence.
    await handleCommand(
      eventStore,
      orderStream(order.id),
      orderDecider,
      { type: 'RequestDeliveryEmailResend', orderId: order.id, now: requestedAt },
      {
        actor: { type: 'customer', id: email },
        correlationId: req.correlationId,
        causationId: req.requestId,
      },
    );
    res.set('Cache-Control', 'no-store').status(202).json({ requestedAt });
  });

  return router;
}
