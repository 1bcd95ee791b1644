import { setMaxListeners } from 'node:events';
import type { RequestHandler } from 'express';

/**
 * Once the instance begins to stop (`closing` aborted), every answer not yet begun says `Connection: close`,
 * requests already in flight included: a load balancer then never reuses a kept-alive connection for a request
 * that would reach a server that has stopped listening.
 */
export function closeConnectionsWhenDraining(closing: AbortSignal | undefined): RequestHandler {
  // One listener per request in flight: many at once are expected, not a leak.
  if (closing) setMaxListeners(0, closing);
  return (_req, res, next) => {
    if (!closing) return next();
    const closeAfterAnswer = () => {
      if (!res.headersSent) res.setHeader('Connection', 'close');
    };
    if (closing.aborted) closeAfterAnswer();
    else {
      closing.addEventListener('abort', closeAfterAnswer, { once: true });
      res.once('close', () => closing.removeEventListener('abort', closeAfterAnswer));
    }
    next();
  };
}
