import { TooManyRequestsError } from '@licensestore/domain';
import type { Router } from 'express';
import type { Redis } from 'ioredis';
import { countHits } from './fixed-windows.js';

export interface ClientLimit {
  /** Requests one client address may make per window. */
  perClient: number;
  windowSeconds: number;
}

export interface ClientThrottle {
  method: 'get' | 'post';
  paths: string | string[];
  /** The Redis counter's name; routes that share one share their budget. */
  counter: string;
  limit: ClientLimit;
  /** What the client did too often, as the first sentence of the 429 (the wait follows it). */
  tooMany: string;
}

/** "12 seconds", "1 second". */
export const seconds = (count: number) => `${count} second${count === 1 ? '' : 's'}`;

/**
 * Counts each request of the routes per client address (`req.ip`: the proxy's X-Forwarded-For under TRUST_PROXY)
 * before the route does anything; over the limit it is a 429 with Retry-After and a sentence saying how long to wait.
 */
export function throttlePerClient(router: Router, redis: Redis, throttle: ClientThrottle) {
  router[throttle.method](throttle.paths, async (req, _res, next) => {
    const [client] = await countHits(redis, throttle.limit.windowSeconds, [
      `${throttle.counter}:${req.ip ?? 'unknown'}`,
    ] as const);
    if (client.count <= throttle.limit.perClient) return next();
    throw new TooManyRequestsError(
      `${throttle.tooMany} Please wait ${seconds(client.secondsLeft)} and try again.`,
      client.secondsLeft,
    );
  });
}
