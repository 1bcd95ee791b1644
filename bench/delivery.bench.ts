/**
 * Delivery latency: concurrent shoppers buy; for each order, the time from the capture's answer to its delivery
 * e-mail being sent (DeliveryEmailSent's sentAt), and keys assigned per second. Baseline in the same run: one
 * event-store hop (append, then seen by a $all subscription) at the same concurrency; the delivery path makes
 * three such hops (order → inventory → order → e-mail), each followed by a BullMQ job.
 *
 *   npm run bench:delivery
 *
 * The store runs as `npm start` runs it (bench/support/store.ts) with the workers role and e-mails written as
 * .eml files; the inventory holds enough keys for every order. Knobs: BENCH_SHOPPERS (50), BENCH_ORDERS (1000),
 * BENCH_WARMUP (100), BENCH_PRODUCTS (5).
 */
import { randomUUID } from 'node:crypto';
import { cpus } from 'node:os';
import type { EventStore, NewEventMetadata } from '@licensestore/domain/events';
import { openDatabase } from '@licensestore/platform/db';
import { openEventStore } from '@licensestore/platform/eventstore';
import type pg from 'pg';
import { format, percentile, runConcurrently } from './support/stats.js';
import { type BenchProduct, buy, createCatalogue, startBenchStore, stockKeys } from './support/store.js';

const SHOPPERS = Number(process.env.BENCH_SHOPPERS ?? 50);
const ORDERS = Number(process.env.BENCH_ORDERS ?? 1000);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 100);
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 5);
const TARGET_P99_MS = 1000;
const DELIVERY_TIMEOUT_MS = 120_000;

const metadata: NewEventMetadata = {
  actor: { type: 'admin', id: 'bench' },
  correlationId: 'bench',
  causationId: 'bench',
};

/** One event-store hop at the shoppers' concurrency: append, then seen by a $all subscription. */
async function bareHops(eventStore: EventStore, count: number) {
  const waiting = new Map<string, () => void>();
  const stop = new AbortController();
  // The subscription starts at the end of the log: a marker appended now says where that is.
  const marker = await eventStore.append(
    `benchmarker-${randomUUID()}`,
    [{ type: 'BenchMarker', data: {}, metadata }],
    'no_stream',
  );
  const subscription = (async () => {
    for await (const event of eventStore.subscribeAll(marker.position, stop.signal))
      waiting.get(event.id)?.();
  })();
  const run = await runConcurrently(count, SHOPPERS, async () => {
    const id = randomUUID();
    const seen = new Promise<void>((resolve) => waiting.set(id, resolve));
    const started = performance.now();
    await eventStore.append(`benchhop-${id}`, [{ id, type: 'BenchHop', data: {}, metadata }], 'no_stream');
    await seen;
    waiting.delete(id);
    return performance.now() - started;
  });
  stop.abort();
  await subscription.catch(() => {});
  return run;
}

/** The delivery chain's steps, each an event of the order's correlation; a stage is the time between two of them. */
const CHAIN = [
  'OrderCaptured',
  'LicenceKeysRequested',
  'LicenceKeysAssigned',
  'OrderLicenceKeysAssigned',
  'DeliveryEmailSent',
] as const;

/** Where the time goes: per stage, the latencies over the orders, from the events' commit-side timestamps. */
async function stageLatencies(pool: pg.Pool, orderIds: string[]) {
  const { rows } = await pool.query<{ order_id: string; event_type: string; at: Date }>(
    `SELECT data->>'orderId' AS order_id, event_type, min(created_at) AS at FROM event_store.events
      WHERE event_type = ANY($1::text[]) AND data->>'orderId' = ANY($2::text[]) GROUP BY 1, 2`,
    [CHAIN, orderIds],
  );
  const at = new Map(rows.map((row) => [`${row.order_id}/${row.event_type}`, row.at.getTime()]));
  return CHAIN.slice(1).map((type, i) => {
    const previous = CHAIN[i] as string;
    const latencies = orderIds
      .map((id) => (at.get(`${id}/${type}`) ?? Number.NaN) - (at.get(`${id}/${previous}`) ?? Number.NaN))
      .filter((ms) => !Number.isNaN(ms))
      .sort((a, b) => a - b);
    return { stage: `${previous} → ${type}`, latencies };
  });
}

async function main() {
  console.log(
    `delivery bench: ${SHOPPERS} shoppers, ${format(ORDERS)} orders (after ${format(WARMUP)} warm-up), ` +
      `${cpus().length} CPUs, Node ${process.version}`,
  );
  const store = await startBenchStore({ workers: true });
  const database = openDatabase(store.databaseUrl);
  const eventStore = await openEventStore({ databaseUrl: store.databaseUrl });
  try {
    const products = await createCatalogue(eventStore, database, PRODUCTS);
    await stockKeys(
      eventStore,
      store.licenseKeySecret,
      products,
      Math.ceil((ORDERS + WARMUP) / PRODUCTS) + 1,
    );

    const capturedAt = new Map<string, number>();
    const shop = async (i: number) => {
      const purchase = await buy(store, products[i % products.length] as BenchProduct, i);
      capturedAt.set(purchase.orderId, Date.now());
      return purchase.capturedAt - purchase.startedAt;
    };
    await runConcurrently(WARMUP, SHOPPERS, shop);
    capturedAt.clear();
    const checkout = await runConcurrently(ORDERS, SHOPPERS, shop);

    // Every measured order's e-mail, then the figures from the recorded events' own timestamps.
    const deadline = Date.now() + DELIVERY_TIMEOUT_MS;
    const ids = [...capturedAt.keys()];
    let sent: Array<{ order_id: string; sent_at: string }> = [];
    for (;;) {
      ({ rows: sent } = await database.pool.query<{ order_id: string; sent_at: string }>(
        `SELECT data->>'orderId' AS order_id, min(data->>'sentAt') AS sent_at FROM event_store.events
          WHERE event_type = 'DeliveryEmailSent' AND data->>'orderId' = ANY($1::text[]) GROUP BY 1`,
        [ids],
      ));
      if (sent.length >= ids.length || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const latencies = sent
      .map((row) => Date.parse(row.sent_at) - (capturedAt.get(row.order_id) ?? Number.NaN))
      .sort((a, b) => a - b);
    const { rows: assigned } = await database.pool.query<{ keys: string; first: string; last: string }>(
      `SELECT sum(jsonb_array_length(data->'keys')) AS keys, min(data->>'assignedAt') AS first,
              max(data->>'assignedAt') AS last
         FROM event_store.events WHERE event_type = 'LicenceKeysAssigned' AND data->>'orderId' = ANY($1::text[])`,
      [ids],
    );
    const { rows: duplicates } = await database.pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM (SELECT data->>'trigger' FROM event_store.events WHERE event_type = 'DeliveryEmailSent'
          GROUP BY 1 HAVING count(*) > 1) d`,
    );
    const stages = await stageLatencies(database.pool, ids);
    const hops = await bareHops(eventStore, ORDERS);

    const keys = Number(assigned[0]?.keys ?? 0);
    const spanSeconds = (Date.parse(assigned[0]?.last ?? '') - Math.min(...capturedAt.values())) / 1000;
    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    const hopP99 = percentile(hops.latencies, 99);
    console.log(
      `\ncheckout: ${format(ORDERS)} orders in ${format(checkout.ms / 1000, 2)} s = ${format(ORDERS / (checkout.ms / 1000))} orders/s`,
    );
    console.log(
      `capture answer → delivery e-mail sent: p50 ${format(p50, 0)} ms, p99 ${format(p99, 0)} ms, ` +
        `max ${format(latencies.at(-1) ?? Number.NaN, 0)} ms (${sent.length}/${ids.length} e-mails)`,
    );
    for (const { stage, latencies: ms } of stages) {
      console.log(
        `  ${stage.padEnd(46)} p50 ${format(percentile(ms, 50), 0).padStart(5)} ms, p99 ${format(percentile(ms, 99), 0).padStart(5)} ms`,
      );
    }
    console.log(
      `keys assigned: ${format(keys)} in ${format(spanSeconds, 2)} s = ${format(keys / spanSeconds)} keys/s`,
    );
    console.log(
      `baseline, one event-store hop: p50 ${format(percentile(hops.latencies, 50), 1)} ms, p99 ${format(hopP99, 1)} ms; ` +
        `delivery p99 / hop p99: ${format(p99 / hopP99, 1)}`,
    );
    console.log(`checks: ${duplicates[0]?.n ?? '?'} e-mails recorded twice for one trigger (expected 0)`);
    const met = sent.length === ids.length && p99 < TARGET_P99_MS;
    console.log(`target (every e-mail sent, p99 < ${TARGET_P99_MS} ms): ${met ? 'met' : 'NOT met'}`);
  } finally {
    await Promise.allSettled([database.close(), eventStore.close()]);
    await store.stop();
  }
}

await main();
