import type { Request, RequestHandler } from 'express';
import { Histogram, type Registry } from 'prom-client';

/** Requests that matched no route (static files, the web client's pages, 404s) share one label. */
export const UNMATCHED_ROUTE = 'unmatched';

/** From a cached read (a few ms) to a capture waiting on PayPal and the read model (seconds). */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Makes `req` remember the pattern of the route it matches, mount path included ('/api/orders/:id'). Express sets
 * `req.route` while the matching router's base URL is current; by the time an error reaches the app's error
 * handler (or the response ends) that base URL has been put back, so the pattern is taken at that moment.
 */
function rememberRoutePattern(req: Request): () => string {
  let route: Request['route'];
  let pattern = UNMATCHED_ROUTE;
  Object.defineProperty(req, 'route', {
    configurable: true,
    enumerable: true,
    get: () => route,
    set: (value: Request['route']) => {
      route = value;
      if (value) pattern = `${req.baseUrl}${String(value.path)}`;
    },
  });
  return () => pattern;
}

/** `licensestore_http_request_duration_seconds{method, route, status_class}`: route patterns, never raw paths. */
export function observeRequestDurations(registry: Registry): RequestHandler {
  const histogram = new Histogram({
    name: 'licensestore_http_request_duration_seconds',
    help: 'Time from a request arriving to its response ending, by method, route pattern and status class',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: BUCKETS,
    registers: [registry],
  });
  return (req, res, next) => {
    const patternOf = rememberRoutePattern(req);
    const stop = histogram.startTimer();
    res.once('close', () => {
      stop({ method: req.method, route: patternOf(), status_class: `${Math.floor(res.statusCode / 100)}xx` });
    });
    next();
  };
}
