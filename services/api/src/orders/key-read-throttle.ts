import { TooManyRequestsError } from '@licensestore/shared';
import { Router } from 'express';
import type { Redis } from 'ioredis';
import { countHits } from '../http/fixed-windows.js';

export interface KeyReadLimit {
  /** Reads of licence keys one client address may make per window, all key-reading routes together. */
  perClient: number;
  windowSeconds: number;
}

/**
 * An order page reads its keys twice when it opens (its lines, then its event stream) and once a minute for as
 * long as it stays open (the stream ends after 60 s and the browser reconnects); My Orders reads once per visit. A
 * customer clicking through every order and reloading makes a few dozen reads a minute at most, and an office or
 * a carrier's NAT with a dozen such tabs open behind one address makes a few dozen more: 120 a minute is out of
 * their reach. A script is held to two reads a second, and each read past the custody record costs one Redis read.
 */
export const KEY_READ_LIMIT: KeyReadLimit = { perClient: 120, windowSeconds: 60 };

/** The routes that answer licence keys in clear to whoever holds access: the throttle counts every call. */
const KEY_READING_ROUTES = ['/orders/:orderId/items', '/orders/:orderId/events', '/my-orders'];

const plural = (seconds: number) => `${seconds} second${seconds === 1 ? '' : 's'}`;

/**
 * GET of every key-reading route, counted per client address (`req.ip`: the proxy's X-Forwarded-For under
 * TRUST_PROXY) before anything is read; over the limit it is a 429 with Retry-After. Mounted ahead of those routes.
 */
export function throttleKeyReads(redis: Redis, limit: KeyReadLimit = KEY_READ_LIMIT): Router {
  const router = Router();
  router.get(KEY_READING_ROUTES, async (req, _res, next) => {
    const [client] = await countHits(redis, limit.windowSeconds, [
      `key-reads:${req.ip ?? 'unknown'}`,
    ] as const);
    if (client.count <= limit.perClient) return next();
    throw new TooManyRequestsError(
      'Too many requests for licence keys came from your connection in a short time. ' +
        `Please wait ${plural(client.secondsLeft)} and try again.`,
      client.secondsLeft,
    );
  });
  return router;
}
