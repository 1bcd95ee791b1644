import { randomBytes, randomUUID } from 'node:crypto';
import { inventoryDecider, licenseKeysStream, productStream } from '@licensestore/domain';
import { AUDIT_VERIFY_QUEUE } from '@licensestore/domain/audit-verify';
import { loadStream } from '@licensestore/domain/commands';
import { recordingLogger } from '@licensestore/platform/logging';
import { JOB_QUEUES } from '@licensestore/platform/metrics';
import { allProjectorDescriptors } from '@licensestore/platform/readmodel';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { registerStoreGauges } from '../src/metrics/store-gauges.js';
import { startTestApi, type TestApi } from './support/api.js';
import { type ObservedStore, startObservedStore } from './support/observed-store.js';
import { purchase } from './support/purchase.js';

const SETTLED_WITHIN_MS = 30_000;
const CAPTURE_ROUTE = '/paypal/order/:orderID/capture';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus' text format, the samples only. */
function parseSamples(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^(\w+)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample: ${line}`);
      const labels = Object.fromEntries(
        [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, key, value]) => [key, value]),
      );
      return { name: match[1] as string, labels, value: Number(match[3]) };
    });
}

const samplesOf = (samples: Sample[], name: string) => samples.filter((sample) => sample.name === name);

const sampleValue = (samples: Sample[], name: string, labels: Record<string, string>) =>
  samplesOf(samples, name).find((sample) =>
    Object.entries(labels).every(([key, wanted]) => sample.labels[key] === wanted),
  )?.value;

describe('GET /metrics', () => {
  let store: ObservedStore;
  let productId: string;
  let orderId: string;
  let paypalOrderId: string;

  const scrape = async (headers: Record<string, string> = {}) => {
    const response = await fetch(`${store.api.url}/metrics`, { headers });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    return { text, samples: parseSamples(text) };
  };
  const captures = (samples: Sample[]) =>
    sampleValue(samples, 'licensestore_http_request_duration_seconds_count', {
      method: 'POST',
      route: CAPTURE_ROUTE,
      status_class: '2xx',
    }) ?? 0;
  /** Scrapes until `settled` holds for the samples (the projections and workers run on their own). */
  const scrapeUntil = (what: string, settled: (samples: Sample[]) => boolean) =>
    vi.waitFor(
      async () => {
        const { samples } = await scrape();
        if (!settled(samples)) throw new Error(`not yet: ${what}`);
        return samples;
      },
      { timeout: SETTLED_WITHIN_MS, interval: 200 },
    );

  beforeAll(async () => {
    store = await startObservedStore();
    productId = await store.productWithKeys(3);
  });
  afterAll(() => store?.stop());

  describe('after a purchase', () => {
    let before: Sample[];

    beforeAll(async () => {
      ({ samples: before } = await scrape());
      ({ orderId, paypalOrderId } = await purchase(store.api.url, productId));
    });

    it('counts the capture in the latency histogram under its route pattern, never its ids', async () => {
      const { text, samples } = await scrape();
      expect(captures(samples)).toBe(captures(before) + 1);
      const buckets = samplesOf(samples, 'licensestore_http_request_duration_seconds_bucket').filter(
        (sample) => sample.labels.route === CAPTURE_ROUTE && sample.labels.status_class === '2xx',
      );
      expect(buckets.find((bucket) => bucket.labels.le === '+Inf')?.value).toBe(captures(samples));
      expect(text).not.toContain(paypalOrderId);
      expect(text).not.toContain(orderId);
    });

    it("labels a refused request with its route's whole pattern, mount path included", async () => {
      const response = await fetch(`${store.api.url}/api/orders/${randomUUID()}`);
      expect(response.status).toBe(404);
      const { samples } = await scrape();
      expect(
        sampleValue(samples, 'licensestore_http_request_duration_seconds_count', {
          method: 'GET',
          route: '/api/orders/:orderId',
          status_class: '4xx',
        }),
      ).toBe(1);
    });

    it('shows every projector caught up once the projections have applied the log', async () => {
      const samples = await scrapeUntil('projections caught up', (current) =>
        samplesOf(current, 'licensestore_projection_lag_events').every((sample) => sample.value === 0),
      );
      for (const name of ['licensestore_projection_lag_events', 'licensestore_projection_lag_seconds']) {
        const lags = samplesOf(samples, name);
        expect(lags.map((sample) => sample.labels.projector).sort()).toEqual(
          allProjectorDescriptors.map((projector) => projector.name).sort(),
        );
        expect(lags.every((sample) => sample.value === 0)).toBe(true);
      }
    });

    it("shows the product's keys available as its inventory has them, once the key is assigned", async () => {
      const samples = await scrapeUntil(
        'the key assigned',
        (current) =>
          sampleValue(current, 'licensestore_license_keys_available', { product_id: productId }) === 2,
      );
      const { state } = await loadStream(store.eventStore, licenseKeysStream(productId), inventoryDecider);
      expect(sampleValue(samples, 'licensestore_license_keys_available', { product_id: productId })).toBe(
        state.available.size,
      );
    });

    it('shows every queue the store consumes, by state, empty and without failures once delivered', async () => {
      const started = store.workersLog.entries.find((entry) => entry.message === 'workers started');
      const { queues } = (started?.fields ?? { queues: [] }) as { queues: string[] };
      // The verification queue is the projections role's.
      expect([...queues, AUDIT_VERIFY_QUEUE].sort()).toEqual([...JOB_QUEUES].sort());
      const samples = await scrapeUntil('the queues drained', (current) =>
        samplesOf(current, 'licensestore_queue_jobs').every((sample) => sample.value === 0),
      );
      const series = samplesOf(samples, 'licensestore_queue_jobs').map(
        ({ labels }) => `${labels.queue}/${labels.state}`,
      );
      expect(series.sort()).toEqual(
        JOB_QUEUES.flatMap((queue) =>
          ['active', 'delayed', 'failed', 'waiting'].map((state) => `${queue}/${state}`),
        ).sort(),
      );
    });

    it('says every source answered, and includes the process metrics', async () => {
      const { samples } = await scrape();
      expect(
        Object.fromEntries(
          samplesOf(samples, 'licensestore_metrics_source_up').map((sample) => [
            sample.labels.source,
            sample.value,
          ]),
        ),
      ).toEqual({ projections: 1, queues: 1, license_keys: 1, parked_events: 1 });
      expect(samplesOf(samples, 'process_resident_memory_bytes')[0]?.value).toBeGreaterThan(0);
    });
  });

  it('counts the events parked because they do not read', async () => {
    const { samples: before } = await scrape();
    expect(sampleValue(before, 'licensestore_parked_events', {})).toBe(0);
    const id = randomUUID();
    const metadata = { actor: { type: 'admin', id: 'admin' }, correlationId: 'c', causationId: 'c' } as const;
    await store.eventStore.append(
      productStream(id),
      [{ type: 'ProductDeleted', data: { productId: id, deletedAt: 'yesterday' }, metadata }],
      'no_stream',
    );
    await scrapeUntil(
      'the event parked',
      (current) => sampleValue(current, 'licensestore_parked_events', {}) === 1,
    );
  });

  it('logs its own requests at debug, and leaves the query string out of every access line', async () => {
    await fetch(`${store.api.url}/healthz?probe=1`);
    await scrape();
    await fetch(`${store.api.url}/api/products?secret=s3cr3t`);
    const lines = store.api.logger.entries.filter((entry) => entry.message === 'request');
    const byPath = (path: string) =>
      lines.filter((entry) => (entry.fields as { path: string }).path === path);
    expect(byPath('/healthz').map((entry) => entry.level)).toContain('debug');
    expect(byPath('/metrics').every((entry) => entry.level === 'debug')).toBe(true);
    expect(byPath('/api/products').map((entry) => entry.level)).toEqual(['info']);
    expect(JSON.stringify(lines)).not.toContain('s3cr3t');
  });

  it('answers 404 to a loopback caller whose request came through a proxy', async () => {
    for (const [name, value] of [
      ['X-Forwarded-For', '203.0.113.9'],
      ['Forwarded', 'for=203.0.113.9'],
    ]) {
      expect(
        (await fetch(`${store.api.url}/metrics`, { headers: { [name as string]: value as string } })).status,
      ).toBe(404);
    }
  });

  it('leaves out a source that does not answer, and the scrape still answers', async () => {
    const registry = new Registry();
    const logger = recordingLogger();
    const gauges = registerStoreGauges(registry, {
      db: store.database.db,
      eventStore: store.eventStore,
      // Nothing listens on port 1: the queues cannot be read.
      redisUrl: 'redis://127.0.0.1:1',
      queuePrefix: undefined,
      logger,
    });
    try {
      const samples = parseSamples(await registry.metrics());
      expect(sampleValue(samples, 'licensestore_metrics_source_up', { source: 'queues' })).toBe(0);
      expect(samplesOf(samples, 'licensestore_queue_jobs')).toEqual([]);
      expect(sampleValue(samples, 'licensestore_metrics_source_up', { source: 'projections' })).toBe(1);
      expect(
        sampleValue(samples, 'licensestore_license_keys_available', { product_id: productId }),
      ).toBeDefined();
      expect(logger.entries.map((entry) => entry.fields)).toContainEqual(
        expect.objectContaining({ source: 'queues' }),
      );
    } finally {
      await gauges.close();
    }
  });
});

describe('GET /metrics with METRICS_TOKEN set', () => {
  const token = randomBytes(24).toString('base64url');
  let api: TestApi;

  beforeAll(async () => {
    api = await startTestApi({ env: { METRICS_TOKEN: token } });
  });
  afterAll(() => api?.stop());

  it('refuses a caller without the token, even on loopback, and one with another token', async () => {
    const bare = await fetch(`${api.url}/metrics`);
    expect(bare.status).toBe(401);
    expect(bare.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(await bare.json()).toEqual({ error: expect.any(String) });
    for (const authorization of [`Bearer ${token}x`, `Basic ${token}`, token, 'Bearer ']) {
      expect((await fetch(`${api.url}/metrics`, { headers: { authorization } })).status).toBe(401);
    }
  });

  it('answers the bearer of the token', async () => {
    const response = await fetch(`${api.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('# TYPE licensestore_http_request_duration_seconds histogram');
  });
});
