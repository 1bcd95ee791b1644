import { type Express, Router } from 'express';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { metricsAccess } from './access.js';
import { observeRequestDurations } from './http-duration.js';
import { registerStoreGauges, type StoreGaugeDeps } from './store-gauges.js';

export interface MetricsDeps extends StoreGaugeDeps {
  /** METRICS_TOKEN: required as a bearer token when set; unset, only loopback callers are answered. */
  token: string | undefined;
}

export interface Metrics {
  /** Times every request of `app`. */
  observeRequests(app: Express): void;
  /** GET /metrics in Prometheus' text format. */
  router: Router;
  close(): Promise<void>;
}

/**
 * This instance's Prometheus metrics, in a registry of its own (several apps may share a process, as in tests):
 * request latency, the process' own (memory, event loop, GC), and the store's state read at scrape time.
 */
export function createMetrics(deps: MetricsDeps): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const gauges = registerStoreGauges(registry, deps);

  const router = Router();
  router.get('/metrics', metricsAccess(deps.token), async (_req, res) => {
    const text = await registry.metrics();
    res.set('Cache-Control', 'no-store').type(registry.contentType).send(text);
  });
  return {
    observeRequests: (app) => observeRequestDurations(app, registry),
    router,
    close: gauges.close,
  };
}
