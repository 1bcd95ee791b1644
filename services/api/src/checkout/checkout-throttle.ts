import { Router } from 'express';
import type { Redis } from 'ioredis';
import { type ClientLimit, throttlePerClient } from '../http/client-throttle.js';

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

/**
 * POST /paypal/order and POST /paypal/order/:orderID/capture, each counted per client address before anything is
 * priced, checked or sent to PayPal. Mounted ahead of the checkout routes.
 */
export function throttleCheckout(redis: Redis, limits: CheckoutLimits = CHECKOUT_LIMITS): Router {
  const router = Router();
  throttlePerClient(router, redis, {
    method: 'post',
    paths: '/paypal/order',
    counter: 'paypal-orders',
    limit: limits.orders,
    tooMany: 'Too many checkouts were started from your connection in a short time.',
  });
  throttlePerClient(router, redis, {
    method: 'post',
    paths: '/paypal/order/:orderID/capture',
    counter: 'paypal-captures',
    limit: limits.captures,
    tooMany: 'Too many payments were attempted from your connection in a short time.',
  });
  return router;
}
