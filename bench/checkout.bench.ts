/**
 * Checkout throughput: concurrent shoppers each create a PayPal order, approve it and capture it, against bare
 * event appends (2 per order, the same concurrency) measured in the same run.
 *
 *   npm run bench:checkout
 *
 * The store runs as `npm start` runs it (bench/support/store.ts), the PayPal emulator standalone; this process is
 * only the shoppers. A capture answers once the orders read model has it. Every capture also sends the emulator's
 * PAYMENT.CAPTURE.COMPLETED webhook back to the api, which verifies and applies it as in production. It prints the
 * CPU time each process spent per order, and the throughput that CPU allows on this machine.
 * Knobs: BENCH_SHOPPERS (50), BENCH_ORDERS (3000), BENCH_WARMUP (200), BENCH_PRODUCTS (20),
 * BENCH_PROJECTIONS=in-process.
 */
import { randomUUID } from 'node:crypto';
import { cpus } from 'node:os';
import { clientAuthorization } from '@licensestore/paypal-sandbox';
import { openDatabase } from '@licensestore/platform/db';
import { openEventStore } from '@licensestore/platform/eventstore';
import { cpuPerUnit, cpuSnapshot } from './support/cpu.js';
import { format, percentile, runConcurrently } from './support/stats.js';
import { buy, createCatalogue, startBenchStore } from './support/store.js';

const SHOPPERS = Number(process.env.BENCH_SHOPPERS ?? 50);
const ORDERS = Number(process.env.BENCH_ORDERS ?? 3000);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 200);
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 20);
const PROJECTIONS_IN_PROCESS = process.env.BENCH_PROJECTIONS === 'in-process';
/** Checkout against the bare appends an order needs, in the same run: what the store adds per order, as a ratio. */
const TARGET_RATIO = 0.2;

async function main() {
  console.log(
    `checkout bench: ${SHOPPERS} shoppers, ${format(ORDERS)} orders (after ${format(WARMUP)} warm-up), ` +
      `${cpus().length} CPUs, Node ${process.version}, projections ${PROJECTIONS_IN_PROCESS ? 'in this process' : 'in a child process'}`,
  );
  const store = await startBenchStore({ projectionsInProcess: PROJECTIONS_IN_PROCESS });
  const database = openDatabase(store.databaseUrl);
  const eventStore = await openEventStore({ databaseUrl: store.databaseUrl });
  try {
    const { rows } = await database.pool.query<{ server_version: string }>('SHOW server_version');
    const products = await createCatalogue(eventStore, database, PRODUCTS);

    const captureLatencies: number[] = [];
    const shop = async (i: number) => {
      const purchase = await buy(store, products[i % products.length] as (typeof products)[number], i);
      captureLatencies.push(purchase.capturedAt - purchase.captureStartedAt);
      return purchase.capturedAt - purchase.startedAt;
    };
    await runConcurrently(WARMUP, SHOPPERS, shop);
    captureLatencies.length = 0;
    const cpuBefore = cpuSnapshot(store.counted);
    const checkout = await runConcurrently(ORDERS, SHOPPERS, shop);
    const cpu = cpuPerUnit(cpuBefore, cpuSnapshot(store.counted), ORDERS);
    const captures = captureLatencies.sort((a, b) => a - b);

    // Baseline: what the event store alone does for the appends an order needs beyond its CheckoutStarted
    // (CheckoutCaptured with an expected revision, OrderCaptured to a new stream), at the same concurrency.
    const metadata = {
      actor: { type: 'system' as const, id: 'bench' },
      correlationId: 'b',
      causationId: 'b',
    };
    const bare = await runConcurrently(ORDERS, SHOPPERS, async () => {
      const started = performance.now();
      await eventStore.append(
        `benchcheckout-${randomUUID()}`,
        [{ type: 'BenchCaptured', data: { n: 1 }, metadata }],
        'no_stream',
      );
      await eventStore.append(
        `benchorder-${randomUUID()}`,
        [{ type: 'BenchOrder', data: { n: 2 }, metadata }],
        'no_stream',
      );
      return performance.now() - started;
    });

    // The bench's own checks: one order per PayPal order, every capture webhook delivered and accepted.
    const counts = await database.pool.query<{ orders: string; captured: string }>(
      `SELECT count(*) FILTER (WHERE event_type = 'OrderCaptured') AS orders,
              count(DISTINCT data->>'paypalOrderId') FILTER (WHERE event_type = 'OrderCaptured') AS captured
         FROM event_store.events`,
    );
    const deliveries = (await (
      await fetch(`${store.paypalUrl}/simulate/deliveries`, {
        headers: { authorization: clientAuthorization() },
      })
    ).json()) as Array<{
      delivered: boolean;
      attempts: number;
    }>;

    const ordersPerSecond = ORDERS / (checkout.ms / 1000);
    const barePerSecond = ORDERS / (bare.ms / 1000);
    const p50 = percentile(captures, 50);
    const p99 = percentile(captures, 99);
    console.log(`\nPostgreSQL ${rows[0]?.server_version}`);
    console.log(
      `checkout: ${format(ORDERS)} orders in ${format(checkout.ms / 1000, 2)} s = ${format(ordersPerSecond)} orders/s ` +
        `(create + approve + capture per order)`,
    );
    console.log(
      `  capture latency: p50 ${format(p50, 1)} ms, p99 ${format(p99, 1)} ms, max ${format(captures.at(-1) ?? 0, 1)} ms`,
    );
    console.log(
      `  whole order:     p50 ${format(percentile(checkout.latencies, 50), 1)} ms, p99 ${format(percentile(checkout.latencies, 99), 1)} ms`,
    );
    console.log(
      `bare appends: ${format(barePerSecond)} orders/s (2 appends each, ${SHOPPERS} concurrent; ` +
        `p50 ${format(percentile(bare.latencies, 50), 1)} ms, p99 ${format(percentile(bare.latencies, 99), 1)} ms)`,
    );
    const harness =
      (cpu.perUnit.get('shoppers (this process)') ?? 0) + (cpu.perUnit.get('PayPal emulator') ?? 0);
    const cores = cpus().length;
    console.log(
      `  CPU per order: ${[...cpu.perUnit].map(([name, ms]) => `${name} ${format(ms, 2)} ms`).join(', ')}; ` +
        `total ${format(cpu.totalMs, 2)} ms`,
    );
    console.log(
      `  CPU ceiling on ${cores} cores: ${format((cores * 1000) / cpu.totalMs)} orders/s with shoppers and PayPal here, ` +
        `${format((cores * 1000) / (cpu.totalMs - harness))} orders/s for the store alone`,
    );
    const ceiling = (cores * 1000) / cpu.totalMs;
    const ratio = ordersPerSecond / barePerSecond;
    console.log(
      `ratio checkout / bare appends: ${format(ratio, 2)} ` +
        `(the CPU ceiling above allows ${format(ceiling / barePerSecond, 2)} on this machine)`,
    );
    console.log(
      `checks: ${counts.rows[0]?.orders} OrderCaptured for ${counts.rows[0]?.captured} PayPal orders ` +
        `(expected ${ORDERS + WARMUP}); webhooks delivered ${deliveries.filter((d) => d.delivered).length}/${deliveries.length} ` +
        `(${deliveries.filter((d) => d.attempts > 1).length} only after a retry)`,
    );
    console.log(`target (ratio >= ${TARGET_RATIO}): ${ratio >= TARGET_RATIO ? 'met' : 'NOT met'}`);
  } finally {
    await Promise.allSettled([database.close(), eventStore.close()]);
    await store.stop();
  }
}

await main();
