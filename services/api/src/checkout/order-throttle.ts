import { TooManyRequestsError } from '@licensestore/shared';
import { Router } from 'express';
import type { Redis } from 'ioredis';
import { countHits } from '../http/fixed-windows.js';

export interface OrderLimit {
  /** PayPal orders one client address may create per window. */
  perClient: number;
  windowSeconds: number;
}

/**
 * Each press of a PayPal button creates one PayPal order and one permanent event. A shopper who changes the cart and
 * tries again a few times makes a handful a minute; 20 leaves room for several shoppers behind one address (an
 * office or a mobile carrier's NAT) and still caps a script at 20 events and PayPal orders a minute.
 */
export const ORDER_LIMIT: OrderLimit = { perClient: 20, windowSeconds: 60 };

/**
 * POST /paypal/order, counted per client address (`req.ip`: the proxy's X-Forwarded-For under TRUST_PROXY) before
 * anything is priced or sent to PayPal; over the limit it is a 429 with Retry-After. Mounted ahead of the checkout
 * routes.
 */
export function throttleOrderCreation(redis: Redis, limit: OrderLimit = ORDER_LIMIT): Router {
  const router = Router();
  router.post('/paypal/order', async (req, _res, next) => {
    const [client] = await countHits(redis, limit.windowSeconds, [
      `paypal-orders:${req.ip ?? 'unknown'}`,
    ] as const);
    if (client.count <= limit.perClient) return next();
    throw new TooManyRequestsError(
      `Too many checkouts were started from your connection in a short time. Please wait ${client.secondsLeft} ` +
        `second${client.secondsLeft === 1 ? '' : 's'} and try again.`,
      client.secondsLeft,
    );
  });
  return router;
}
