import { UnauthenticatedError } from '@licensestore/shared';
import type { Database } from '@licensestore/shared/db';
import type { KeyVault } from '@licensestore/shared/key-vault';
import type { Logger } from '@licensestore/shared/logging';
import { type Request, Router } from 'express';
import type { Kysely } from 'kysely';
import { keyRevealer } from '../licence-keys/reveal.js';
import type { OrderView } from '../orders/queries.js';
import type { OrderItemView } from '../orders/routes.js';
import { listCustomerOrders } from './queries.js';

/** An order on the customer's own list: the order as GET /api/orders/:id answers it, with its items' shape. */
export interface MyOrderView extends OrderView {
  items: OrderItemView[];
}

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
    const email = signedInCustomerEmail(req);
    const orders = await listCustomerOrders(db, email);
    const views: MyOrderView[] = orders.map(({ items, ...order }) => ({
      ...order,
      items: items.map(({ sealedKeys, ...item }) => {
        const licenseKeys = sealedKeys.flatMap(
          (sealed) => reveal(sealed, { orderId: order.id, itemId: item.id }) ?? [],
        );
        return { ...item, licenseKey: licenseKeys[0] ?? null, licenseKeys };
      }),
    }));
    // Names, addresses and licence keys: no cache anywhere keeps them.
    res.set('Cache-Control', 'no-store').json(views);
  });

  return router;
}
