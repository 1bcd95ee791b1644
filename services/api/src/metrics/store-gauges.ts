import type { EventStore } from '@licensestore/domain/events';
import type { Database } from '@licensestore/platform/db';
import type { Logger } from '@licensestore/platform/logging';
import { JOB_QUEUES } from '@licensestore/platform/metrics';
import { countParkedEvents } from '@licensestore/platform/parked-events';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import { Gauge, type Registry } from 'prom-client';
import { projectionLag } from '../health/projection-lag.js';
import { withinTimeout } from '../health/within-timeout.js';
import { listStock } from '../license-keys/queries.js';

/** A source slower than this is left out of the scrape (its gauges absent, its `up` 0) rather than hanging it. */
const SOURCE_TIMEOUT_MS = 2_000;
/** Events behind are counted up to this many; a projector further behind reads as this (its seconds tell the rest). */
const LAG_COUNT_CAP = 10_000;
const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;

export interface StoreGaugeDeps {
  db: Kysely<Database>;
  eventStore: EventStore;
  /** Where the workers' queues live; unset leaves the queue gauges out (their source reports down). */
  redisUrl: string | undefined;
  /** BullMQ's key prefix the workers use (`bull` when unset). */
  queuePrefix: string | undefined;
  logger: Logger;
}

/**
 * One reading of a dependency per scrape, shared by every gauge fed from it (prom-client asks each gauge's
 * collect() at once, so they join the read in flight), and bounded: a dependency that fails or is slow gives
 * `undefined`, logged, and the scrape goes on without it.
 */
function scrapeSource<T>(name: string, read: () => Promise<T>, logger: Logger) {
  let inFlight: Promise<T | undefined> | null = null;
  const current = () => {
    inFlight ??= withinTimeout(read(), SOURCE_TIMEOUT_MS)
      .catch((error: unknown) => {
        logger.warn(
          { source: name, err: error },
          'metrics: a source did not answer; the scrape leaves it out',
        );
        return undefined;
      })
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  };
  return { name, current };
}

type Source<T> = ReturnType<typeof scrapeSource<T>>;

/** A gauge showing what its source answered in this scrape; no series at all when the source did not answer. */
function sourcedGauge<T, Label extends string>(
  registry: Registry,
  options: {
    name: string;
    help: string;
    labelNames: readonly Label[];
    source: Source<T>;
    samples: (answer: T) => ReadonlyArray<readonly [Record<Label, string>, number]>;
  },
) {
  const gauge: Gauge<Label> = new Gauge({
    name: options.name,
    help: options.help,
    labelNames: options.labelNames,
    registers: [registry],
    async collect() {
      const answer = await options.source.current();
      gauge.reset();
      if (answer === undefined) return;
      for (const [labels, value] of options.samples(answer)) gauge.set(labels, value);
    },
  });
}

/** The gauges read from the store's dependencies when Prometheus scrapes; `close` ends the queue connection. */
export function registerStoreGauges(registry: Registry, deps: StoreGaugeDeps): { close(): Promise<void> } {
  const { db, eventStore, logger } = deps;
  let connection: Redis | undefined;
  // Set once the instance stops: a scrape while it drains must not open a connection nothing would close.
  let closed = false;
  const queues = new Map<string, Queue>();
  const queue = (name: string, redisUrl: string) => {
    if (!connection) {
      // One connection for every queue; commands fail at once while Redis is away instead of waiting in memory.
      connection = new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
      // A failure reaches the scrape through the commands (source down); unheard, each reconnect would print a stack.
      connection.on('error', () => {});
    }
    let found = queues.get(name);
    if (!found) {
      found = new Queue(name, { connection, prefix: deps.queuePrefix });
      // The queue repeats its connection's errors; the scrape hears of them through getJobCounts.
      found.on('error', () => {});
      queues.set(name, found);
    }
    return found;
  };

  const projections = scrapeSource(
    'projections',
    () => projectionLag(db, eventStore, { now: Date.now(), countUpTo: LAG_COUNT_CAP }),
    logger,
  );
  const jobs = scrapeSource(
    'queues',
    async () => {
      const redisUrl = deps.redisUrl;
      if (!redisUrl) throw new Error('no REDIS_URL');
      if (closed) throw new Error('stopping');
      return Promise.all(
        JOB_QUEUES.map(async (name) => ({
          name,
          counts: await queue(name, redisUrl).getJobCounts(...QUEUE_STATES),
        })),
      );
    },
    logger,
  );
  const stock = scrapeSource('license_keys', () => listStock(db, 0), logger);
  const parked = scrapeSource('parked_events', () => countParkedEvents(db), logger);

  sourcedGauge(registry, {
    name: 'licensestore_projection_lag_events',
    help: `Events in the log after the projector's checkpoint (counted up to ${LAG_COUNT_CAP})`,
    labelNames: ['projector'],
    source: projections,
    samples: (lags) => lags.map((lag) => [{ projector: lag.name }, lag.eventsBehind]),
  });
  sourcedGauge(registry, {
    name: 'licensestore_projection_lag_seconds',
    help: 'Age of the oldest event the projector has not applied; 0 when it has applied the whole log',
    labelNames: ['projector'],
    source: projections,
    samples: (lags) => lags.map((lag) => [{ projector: lag.name }, lag.secondsBehind]),
  });
  sourcedGauge(registry, {
    name: 'licensestore_queue_jobs',
    help: 'Jobs in each BullMQ queue by state, for the whole deployment; failed ones are kept 30 days',
    labelNames: ['queue', 'state'],
    source: jobs,
    samples: (queues) =>
      queues.flatMap(({ name, counts }) =>
        QUEUE_STATES.map((state) => [{ queue: name, state }, counts[state] ?? 0] as const),
      ),
  });
  sourcedGauge(registry, {
    name: 'licensestore_license_keys_available',
    help: 'License keys in stock per product, from the license-keys read model',
    labelNames: ['product_id'],
    source: stock,
    samples: (products) => products.map((product) => [{ product_id: product.productId }, product.available]),
  });
  sourcedGauge(registry, {
    name: 'licensestore_parked_events',
    help: 'Events in the log that do not read, parked and passed by the projectors and the reactor; each is a defect',
    labelNames: [],
    source: parked,
    samples: (count) => [[{}, count]],
  });
  const sources = [projections, jobs, stock, parked];
  const up = new Gauge({
    name: 'licensestore_metrics_source_up',
    help: 'Whether a source answered this scrape within its time (0: its gauges are absent from this scrape)',
    labelNames: ['source'] as const,
    registers: [registry],
    async collect() {
      const answers = await Promise.all(sources.map((source) => source.current()));
      sources.forEach((source, index) => {
        up.set({ source: source.name }, answers[index] === undefined ? 0 : 1);
      });
    },
  });

  return {
    close: async () => {
      closed = true;
      await Promise.all([...queues.values()].map((each) => each.close()));
      queues.clear();
      await connection?.quit().catch(() => {});
      connection = undefined;
    },
  };
}
