import { Router } from 'express';
import type { Redis } from 'ioredis';
import { type ClientLimit, throttlePerClient } from '../http/client-throttle.js';

/**
 * An order page reads its keys twice when it opens (its lines, then its event stream) and once a minute for as
 * long as it stays open (the stream ends after 60 s and the browser reconnects); My Orders reads once per visit. A
 * customer clicking through every order and reloading makes a few dozen reads a minute at most, and an office or
 * a carrier's NAT with a dozen such tabs open behind one address makes a few dozen more: 120 a minute is out of
 * their reach. A script is held to two reads a second, and each read past the custody record costs one Redis read.
 */
export const KEY_READ_LIMIT: ClientLimit = { perClient: 120, windowSeconds: 60 };

/** The routes that answer license keys in clear to whoever holds access: the throttle counts every call. */
const KEY_READING_ROUTES = ['/orders/:orderId/items', '/orders/:orderId/events', '/my-orders'];

/**
 * GET of every key-reading route, counted per client address, all of them together, before anything is read.
 * Mounted ahead of those routes.
 */
export function throttleKeyReads(redis: Redis, limit: ClientLimit = KEY_READ_LIMIT): Router {
  const router = Router();
  throttlePerClient(router, redis, {
    method: 'get',
    paths: KEY_READING_ROUTES,
    counter: 'key-reads',
    limit,
    tooMany: 'Too many requests for license keys came from your connection in a short time.',
  });
  return router;
}
