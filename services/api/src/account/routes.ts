import { type OrderWithItemsView, UnauthenticatedError } from '@licensestore/shared';
import type { Database } from '@licensestore/shared/db';
import type { EventStore } from '@licensestore/shared/eventstore';
import type { KeyVault } from '@licensestore/shared/key-vault';
import type { Logger } from '@licensestore/shared/logging';
import { type Request, Router } from 'express';
import type { Kysely } from 'kysely';
import { keyRevealer } from '../licence-keys/reveal.js';
import type { KeyCustody } from '../orders/custody.js';
import { showOrderItems } from '../orders/item-views.js';
import { listCustomerOrders } from '../orders/queries.js';

export interface AccountRoutesDeps {
  db: Kysely<Database>;
  eventStore: EventStore;
  custody: KeyCustody;
  keyVault: KeyVault;
  logger: Logger;
}

/**
 * The signed-in customer's e-mail address (a customer session's subject). An admin session is not a customer: it
 * gets 401 like everyone else, as GET /api/auth/user answers it.
 */
function signedInCustomerEmail(req: Request): string {
  if (req.session?.kind !== 'customer') throw new UnauthenticatedError('Authentication required');
  return req.session.subjectId;
}

/**
 * GET /api/my-orders: the orders placed with the signed-in customer's address, keys in clear (spec section 7), each
 * order's showing recorded (channel `my-orders`) before the answer leaves.
 */
export function accountRoutes({ db, eventStore, custody, keyVault, logger }: AccountRoutesDeps): Router {
  const router = Router();
  const showing = { eventStore, custody, reveal: keyRevealer(keyVault, logger) };

  router.get('/my-orders', async (req, res) => {
    const email = signedInCustomerEmail(req);
    const orders = await listCustomerOrders(db, email);
    const access = { keys: 'clear', channel: 'my-orders', viewer: { type: 'customer', id: email } } as const;
    const views: OrderWithItemsView[] = await Promise.all(
      orders.map(async ({ items, ...order }) => ({
        ...order,
        items: (await showOrderItems(showing, req, order.id, items, access)).items,
      })),
    );
    // Names, addresses and licence keys: no cache anywhere keeps them.
    res.set('Cache-Control', 'no-store').json(views);
  });

  return router;
}
