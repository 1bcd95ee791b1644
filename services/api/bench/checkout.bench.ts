/**
 * Checkout throughput: concurrent shoppers each create a PayPal order, approve it and capture it, against bare
 * event appends (2 per order, the same concurrency) measured in the same run.
 *
 *   npm run bench:checkout
 *
 * Without DATABASE_URL / REDIS_URL it starts an embedded Postgres and a redis-server in a temporary directory;
 * with them it works in a new database on that server (dropped afterwards). The api and the projections run as
 * child processes, as `npm start` runs them (BENCH_PROJECTIONS=in-process puts the projections in this process);
 * the PayPal emulator runs standalone (PAYPAL_API_BASE_URL), because PayPal is not on the store's machine; this
 * process is only the shoppers. A capture answers once the orders read model has it. Every capture also sends the
 * emulator's PAYMENT.CAPTURE.COMPLETED webhook back to the api, which verifies and applies it as in production.
 * It prints the CPU time each process spent per order, and the throughput that CPU allows on this machine.
 * Knobs: BENCH_SHOPPERS (50), BENCH_ORDERS (3000), BENCH_WARMUP (200), BENCH_PRODUCTS (20).
 */

import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { productDecider, productStream } from '@licensestore/shared';
import { handleCommand } from '@licensestore/shared/commands';
import { openDatabase } from '@licensestore/shared/db';
import { openEventStore } from '@licensestore/shared/eventstore';
import { silentLogger } from '@licensestore/shared/logging';
import { waitForProjections } from '@licensestore/shared/readmodel';
import pg from 'pg';
import { startProjections } from '../../../projections/src/index.js';
import { spawnRole } from '../../../scripts/lib/roles.js';
import { startEmbeddedPostgres } from '../../../scripts/stack/embedded-postgres.js';
import { freePort } from '../../../scripts/stack/free-port.js';
import { startRedisServer } from '../../../scripts/stack/redis-server.js';
import { type Counted, cpuPerUnit, cpuSnapshot } from './cpu.js';

const SHOPPERS = Number(process.env.BENCH_SHOPPERS ?? 50);
const ORDERS = Number(process.env.BENCH_ORDERS ?? 3000);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 200);
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 20);
const PROJECTIONS_IN_PROCESS = process.env.BENCH_PROJECTIONS === 'in-process';
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const TARGET_RATE = 300;
const TARGET_P99_MS = 100;

const format = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;

interface Services {
  databaseUrl: string;
  redisUrl: string;
  stop: () => Promise<void>;
}

async function services(): Promise<Services> {
  const stops: Array<() => Promise<unknown>> = [];
  const stop = async () => {
    for (const step of stops.splice(0).reverse()) await step().catch(() => {});
  };
  try {
    let databaseUrl = process.env.DATABASE_URL;
    let redisUrl = process.env.REDIS_URL;
    let dir: string | undefined;
    if (!databaseUrl || !redisUrl) {
      const created = await mkdtemp(join(tmpdir(), 'licensestore-bench-'));
      dir = created;
      // As root, Postgres runs as the postgres user, which must be able to reach its data directory.
      await chmod(created, 0o755);
      stops.push(() => rm(created, { recursive: true, force: true }));
    }
    if (databaseUrl) {
      const name = `bench_${randomUUID().replaceAll('-', '')}`;
      const admin = new pg.Client({ connectionString: databaseUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      stops.push(async () => {
        await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
        await admin.end();
      });
      const url = new URL(databaseUrl);
      url.pathname = `/${name}`;
      databaseUrl = url.toString();
    } else {
      const server = await startEmbeddedPostgres(join(dir as string, 'postgres'));
      stops.push(() => server.stop());
      await server.createDatabase('bench');
      databaseUrl = server.url('bench');
    }
    if (!redisUrl) {
      const redis = await startRedisServer(join(dir as string, 'redis'));
      stops.push(() => redis.stop());
      redisUrl = redis.url;
    }
    return { databaseUrl, redisUrl, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A helper process (the emulator) run like a role: `node --import tsx <entry>`, its output prefixed. */
function spawnProcess(entry: string, env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, entry)], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    stop: async (graceMs: number) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
    pid: child.pid,
  };
}

async function waitUntilAnswering(url: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

interface Run {
  ms: number;
  latencies: number[];
}

/** `count` jobs over `concurrency` workers; each job reports the latency it wants recorded. */
async function runConcurrently(
  count: number,
  concurrency: number,
  job: (i: number) => Promise<number>,
): Promise<Run> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < count; i = next++) latencies.push(await job(i));
    }),
  );
  return { ms: performance.now() - started, latencies: latencies.sort((a, b) => a - b) };
}

async function main() {
  console.log(
    `checkout bench: ${SHOPPERS} shoppers, ${format(ORDERS)} orders (after ${format(WARMUP)} warm-up), ` +
      `${cpus().length} CPUs, Node ${process.version}, projections ${PROJECTIONS_IN_PROCESS ? 'in this process' : 'in a child process'}`,
  );
  const stack = await services();
  const stops: Array<() => Promise<unknown>> = [stack.stop];
  try {
    const counted: Counted[] = [{ name: 'shoppers (this process)', pid: process.pid, descendants: false }];
    if (PROJECTIONS_IN_PROCESS) {
      stops.push(await startProjections({ databaseUrl: stack.databaseUrl, logger: silentLogger }));
    } else {
      const role = spawnRole(
        ROOT,
        'projections',
        { ...process.env, DATABASE_URL: stack.databaseUrl, LOG_LEVEL: 'error' },
        (line) => console.error(line),
      );
      stops.push(() => role.stop(10_000));
      if (role.child.pid) counted.push({ name: 'projections', pid: role.child.pid, descendants: true });
    }
    // PayPal and the shoppers are elsewhere in real life: the emulator runs as a process of its own, and so does
    // the api (as `npm start` runs it), so this process is only the shoppers' load.
    const [apiPort, paypalPort] = [await freePort(), await freePort()];
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    const paypalUrl = `http://127.0.0.1:${paypalPort}/paypal-sandbox`;
    const paypal = spawnProcess('services/paypal-sandbox/src/main.ts', {
      PORT: String(paypalPort),
      HOST: '127.0.0.1',
      PAYPAL_SANDBOX_WEBHOOK_URL: `${apiUrl}/paypal/webhook`,
      LOG_LEVEL: 'error',
    });
    stops.push(() => paypal.stop(10_000));
    if (paypal.pid) counted.push({ name: 'PayPal emulator', pid: paypal.pid, descendants: true });
    const apiRole = spawnRole(
      ROOT,
      'api',
      {
        ...process.env,
        NODE_ENV: 'production',
        PORT: String(apiPort),
        DATABASE_URL: stack.databaseUrl,
        REDIS_URL: stack.redisUrl,
        SESSION_SECRET: randomBytes(32).toString('hex'),
        ADMIN_PASSWORD: randomBytes(16).toString('hex'),
        PAYPAL_API_BASE_URL: paypalUrl,
        LOG_LEVEL: 'error',
      },
      (line) => console.error(line),
    );
    stops.push(() => apiRole.stop(10_000));
    if (apiRole.child.pid) counted.push({ name: 'api', pid: apiRole.child.pid, descendants: true });
    await Promise.all([
      waitUntilAnswering(`${apiUrl}/api/payments/config`),
      waitUntilAnswering(`${paypalUrl.replace('/paypal-sandbox', '')}/healthz`),
    ]);
    const api = { url: apiUrl };
    const database = openDatabase(stack.databaseUrl);
    stops.push(database.close);
    const eventStore = await openEventStore({ databaseUrl: stack.databaseUrl });
    stops.push(() => eventStore.close());
    const { rows } = await database.pool.query<{ server_version: string }>('SHOW server_version');

    // A catalogue to buy from: half the products on sale.
    const products: Array<{ id: string; price: string }> = [];
    let lastPosition: string | null = null;
    for (let i = 0; i < PRODUCTS; i++) {
      const id = randomUUID();
      const onSale = i % 2 === 0;
      const outcome = await handleCommand(
        eventStore,
        productStream(id),
        productDecider,
        {
          type: 'CreateProduct',
          productId: id,
          fields: {
            name: `Bench licence ${i}`,
            description: 'Benchmark product.',
            imageUrl: '/images/products/windows-11-pro.svg',
            category: 'Windows',
            platform: 'Windows',
            regularPrice: `${20 + i}.99`,
            salePrice: onSale ? `${10 + i}.49` : null,
            featured: false,
            inStock: true,
          },
          now: new Date().toISOString(),
        },
        {
          actor: { type: 'system', id: 'bench' },
          correlationId: 'bench',
          causationId: 'bench',
          schemaVersion: 1,
        },
      );
      lastPosition = outcome.appended?.position ?? lastPosition;
      products.push({ id, price: onSale ? `${10 + i}.49` : `${20 + i}.99` });
    }
    // The projections role may still be starting (migrating its tables): look again until it has the catalogue.
    const deadline = Date.now() + 60_000;
    while (
      lastPosition &&
      !(await waitForProjections(database.pool, lastPosition, { projectors: ['products'], timeoutMs: 1000 }))
    ) {
      if (Date.now() > deadline) throw new Error('the projections never caught up with the catalogue');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }

    const json = { 'content-type': 'application/json' };
    const post = async (url: string, body: unknown) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: json,
        body: JSON.stringify(body),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${url}: ${response.status} ${text}`);
      return JSON.parse(text) as Record<string, unknown>;
    };
    const captureLatencies: number[] = [];
    const shop = async (i: number) => {
      const product = products[i % products.length] as { id: string; price: string };
      const started = performance.now();
      const { id } = await post(`${api.url}/paypal/order`, {
        amount: product.price,
        currency: 'USD',
        intent: 'CAPTURE',
        items: [{ productId: product.id, quantity: 1 }],
      });
      await post(`${paypalUrl}/buyer/orders/${id}/approve`, { choice: 'approve' });
      const captureStarted = performance.now();
      const order = await post(`${api.url}/paypal/order/${id}/capture`, {
        customerName: `Shopper ${i}`,
        customerEmail: `shopper${i}@example.com`,
      });
      if (order.status !== 'processing')
        throw new Error(`order ${String(order.id)} is ${String(order.status)}`);
      captureLatencies.push(performance.now() - captureStarted);
      return performance.now() - started;
    };

    await runConcurrently(WARMUP, SHOPPERS, shop);
    captureLatencies.length = 0;
    const cpuBefore = cpuSnapshot(counted);
    const checkout = await runConcurrently(ORDERS, SHOPPERS, shop);
    const cpu = cpuPerUnit(cpuBefore, cpuSnapshot(counted), ORDERS);
    const captures = captureLatencies.sort((a, b) => a - b);

    // Baseline: what the event store alone does for the appends an order needs beyond its CheckoutStarted
    // (CheckoutCaptured with an expected revision, OrderCaptured to a new stream), at the same concurrency.
    const metadata = {
      actor: { type: 'system' as const, id: 'bench' },
      correlationId: 'b',
      causationId: 'b',
      schemaVersion: 1,
    };
    const bare = await runConcurrently(ORDERS, SHOPPERS, async () => {
      const started = performance.now();
      const stream = `benchcheckout-${randomUUID()}`;
      const first = await eventStore.append(
        stream,
        [{ type: 'BenchCaptured', data: { n: 1 }, metadata }],
        'no_stream',
      );
      await eventStore.append(
        `benchorder-${randomUUID()}`,
        [{ type: 'BenchOrder', data: { n: 2 }, metadata }],
        'no_stream',
      );
      void first;
      return performance.now() - started;
    });

    // The bench's own checks: one order per PayPal order, every capture webhook delivered and accepted.
    const counts = await database.pool.query<{ orders: string; captured: string }>(
      `SELECT count(*) FILTER (WHERE event_type = 'OrderCaptured') AS orders,
              count(DISTINCT data->>'paypalOrderId') FILTER (WHERE event_type = 'OrderCaptured') AS captured
         FROM event_store.events`,
    );
    const deliveries = (await (await fetch(`${paypalUrl}/simulate/deliveries`)).json()) as Array<{
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
    console.log(`ratio checkout / bare appends: ${format(ordersPerSecond / barePerSecond, 2)}`);
    console.log(
      `checks: ${counts.rows[0]?.orders} OrderCaptured for ${counts.rows[0]?.captured} PayPal orders ` +
        `(expected ${ORDERS + WARMUP}); webhooks delivered ${deliveries.filter((d) => d.delivered).length}/${deliveries.length} ` +
        `(${deliveries.filter((d) => d.attempts > 1).length} only after a retry)`,
    );
    const met = ordersPerSecond >= TARGET_RATE && p99 < TARGET_P99_MS;
    console.log(
      `target (>= ${TARGET_RATE} orders/s, capture p99 < ${TARGET_P99_MS} ms): ${met ? 'met' : 'NOT met'}`,
    );
  } finally {
    for (const stop of stops.reverse()) await stop().catch((error: unknown) => console.error(error));
  }
}

await main();
