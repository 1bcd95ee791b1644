import { TooManyRequestsError } from '@licensestore/shared';
import { Router } from 'express';
import type { Redis } from 'ioredis';
import { countHits } from '../http/fixed-windows.js';

export interface ClientLimit {
  /** Requests one client address may make per window. */
  perClient: number;
  windowSeconds: number;
}

export interface CheckoutLimits {
  /** PayPal orders created (POST /paypal/order). */
  orders: ClientLimit;
  /** Capture attempts (POST /paypal/order/:orderID/capture), whatever their answer. */
  captures: ClientLimit;
}

/**
 * Each press of a PayPal button creates one PayPal order and one permanent event. A shopper who changes the cart and
 * tries again a few times makes a handful a minute; 20 leaves room for several shoppers behind one address (an
 * office or a mobile carrier's NAT) and still caps a script at 20 events and PayPal orders a minute.
 *
 * A shopper's browser captures once per approval, again after a declined card and on a retry that got no answer:
 * 30 a minute leaves the same room, and caps at one every two seconds a script polling PayPal order ids it learnt.
 */
export const CHECKOUT_LIMITS: CheckoutLimits = {
  orders: { perClient: 20, windowSeconds: 60 },
  captures: { perClient: 30, windowSeconds: 60 },
};

const plural = (seconds: number) => `${seconds} second${seconds === 1 ? '' : 's'}`;

/**
 * POST /paypal/order and POST /paypal/order/:orderID/capture, each counted per client address (`req.ip`: the proxy's
 * X-Forwarded-For under TRUST_PROXY) before anything is priced, checked or sent to PayPal; over its limit a request
 * is a 429 with Retry-After. Mounted ahead of the checkout routes.
 */
export function throttleCheckout(redis: Redis, limits: CheckoutLimits = CHECKOUT_LIMITS): Router {
  const router = Router();
  const throttle = (path: string, counter: string, limit: ClientLimit, tooMany: string) =>
    router.post(path, async (req, _res, next) => {
      const [client] = await countHits(redis, limit.windowSeconds, [
        `${counter}:${req.ip ?? 'unknown'}`,
      ] as const);
      if (client.count <= limit.perClient) return next();
      throw new TooManyRequestsError(
        `${tooMany} Please wait ${plural(client.secondsLeft)} and try again.`,
        client.secondsLeft,
      );
    });
  throttle(
    '/paypal/order',
    'paypal-orders',
    limits.orders,
    'Too many checkouts were started from your connection in a short time.',
  );
  throttle(
    '/paypal/order/:orderID/capture',
    'paypal-captures',
    limits.captures,
    'Too many payments were attempted from your connection in a short time.',
  );
  return router;
}
