import { type OrderWithItemsView, UnauthenticatedError } from '@licensestore/shared';
import type { Database } from '@licensestore/shared/db';
import type { KeyVault } from '@licensestore/shared/key-vault';
import type { Logger } from '@licensestore/shared/logging';
import { type Request, Router } from 'express';
import type { Kysely } from 'kysely';
import { keyRevealer } from '../licence-keys/reveal.js';
import { orderItemViews } from '../orders/item-views.js';
import { listCustomerOrders } from '../orders/queries.js';

export interface AccountRoutesDeps {
  db: Kysely<Database>;
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

/** GET /api/my-orders: the orders placed with the signed-in customer's address, keys in clear (spec section 7). */
export function accountRoutes({ db, keyVault, logger }: AccountRoutesDeps): Router {
  const router = Router();
  const reveal = keyRevealer(keyVault, logger);

  router.get('/my-orders', async (req, res) => {
    const orders = await listCustomerOrders(db, signedInCustomerEmail(req));
    const views: OrderWithItemsView[] = orders.map(({ items, ...order }) => ({
      ...order,
      items: orderItemViews(order.id, items, 'clear', reveal),
    }));
    // Names, addresses and licence keys: no cache anywhere keeps them.
    res.set('Cache-Control', 'no-store').json(views);
  });

  return router;
}
