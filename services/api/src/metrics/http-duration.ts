import type { Express, Request, Response } from 'express';
import { Histogram, type Registry } from 'prom-client';
import { atEveryRequestStart } from '../http/request-start.js';

/** Requests that matched no route (static files, the web client's pages, 404s) share one label. */
export const UNMATCHED_ROUTE = 'unmatched';

/** From a cached read (a few ms) to a capture waiting on PayPal and the read model (seconds). */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const ROUTE = Symbol('route');
const PATTERN = Symbol('route pattern');

interface RememberedRoute {
  [ROUTE]?: Request['route'];
  [PATTERN]?: string;
}

/**
 * Makes every request of `app` remember the pattern of the route it matches, mount path included
 * ('/api/orders/:id'). Express sets `req.route` while the matching router's base URL is current; by the time an
 * error reaches the app's error handler (or the response ends) that base URL has been put back, so the pattern is
 * taken at that moment, by an accessor on the app's request prototype. The accessor's fields are created as the
 * request enters the app (see atEveryRequestStart).
 */
function rememberRoutePatterns(app: Express): void {
  atEveryRequestStart(app, (req) => {
    const remembered = req as RememberedRoute;
    remembered[ROUTE] = undefined;
    remembered[PATTERN] = undefined;
  });
  Object.defineProperty(app.request, 'route', {
    configurable: true,
    enumerable: true,
    get(this: Request & RememberedRoute) {
      return this[ROUTE];
    },
    set(this: Request & RememberedRoute, route: Request['route']) {
      this[ROUTE] = route;
      if (route) this[PATTERN] = `${this.baseUrl}${String(route.path)}`;
    },
  });
}

const patternOf = (req: Request) => (req as Request & RememberedRoute)[PATTERN] ?? UNMATCHED_ROUTE;

/**
 * `licensestore_http_request_duration_seconds{method, route, status_class}` for every request of `app`: route
 * patterns, never raw paths; durations from the arrival time giveRequestsContext sets.
 */
export function observeRequestDurations(app: Express, registry: Registry): void {
  const histogram = new Histogram({
    name: 'licensestore_http_request_duration_seconds',
    help: 'Time from a request arriving to its response ending, by method, route pattern and status class',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: BUCKETS,
    registers: [registry],
  });
  rememberRoutePatterns(app);
  // One listener function for every request (the time it arrived is on it, from giveRequestsContext): no closure each.
  function observe(this: Response) {
    const { req } = this;
    histogram.observe(
      { method: req.method, route: patternOf(req), status_class: `${Math.floor(this.statusCode / 100)}xx` },
      (performance.now() - req.receivedAt) / 1000,
    );
  }
  atEveryRequestStart(app, (_req, res) => res.on('close', observe));
}
