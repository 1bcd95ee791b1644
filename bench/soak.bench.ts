/**
 * Soak: SOAK_MINUTES of mixed browsing (the catalogue, product pages, testimonials, the home and products pages'
 * HTML) and buying (create, approve, capture through the PayPal emulator, as bench:checkout buys) at a steady pace,
 * sampled every SOAK_WINDOW_SECONDS: the api process's RSS (kernel) and the floor of its V8 heap (its /metrics, read
 * every few seconds: the lowest value, what survives collections), browsing latency
 * p50/p99 and purchase p99 in the window, orders completed. Then a verdict on flatness, the last third of the windows
 * against the first by their medians (RSS and heap growth, browsing p99), and the store's promises checked after
 * the load: every captured PayPal order is one order, every paid order has its keys and exactly one delivery e-mail,
 * no key went twice (each e-mail counted at a real SMTP server the soak runs), the read models verify against the log
 * (scripts/testing/cluster-checks.ts).
 *
 *   npm run bench:soak
 *
 * The store runs as `npm start` runs it (bench/support/store.ts: api, projections and workers as child processes,
 * the demo store, e-mails to the soak's SMTP server), stocked with enough keys for every order through the admin's bulk import.
 * A missed flatness target prints NOT FLAT; a failed purchase, an error while browsing or a broken promise exits 1.
 * Knobs: SOAK_MINUTES (10), SOAK_WINDOW_SECONDS (30), SOAK_CONNECTIONS (20), SOAK_BROWSE_RATE (200 requests/s),
 * SOAK_ORDERS_PER_SECOND (2), SOAK_MAX_SHOPPERS (20 purchases in flight at most).
 */
import { cpus, loadavg } from 'node:os';
import { checkCluster } from '../scripts/testing/cluster-checks.js';
import { freshLicenseKey } from '../test/support/license-keys.js';
import { startTestSmtpServer } from '../test/support/smtp-server.js';
import { load, summarize } from './support/load.js';
import { type WindowMemory, watchMemory } from './support/memory.js';
import { format, percentile, printTable } from './support/stats.js';
import {
  type BenchProduct,
  type BenchStore,
  buy,
  type Purchase,
  signInAsAdmin,
  startBenchStore,
} from './support/store.js';
import { builtWebClient } from './support/web-dist.js';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const WINDOW_SECONDS = Number(process.env.SOAK_WINDOW_SECONDS ?? 30);
const CONNECTIONS = Number(process.env.SOAK_CONNECTIONS ?? 20);
const BROWSE_RATE = Number(process.env.SOAK_BROWSE_RATE ?? 200);
const ORDERS_PER_SECOND = Number(process.env.SOAK_ORDERS_PER_SECOND ?? 2);
const MAX_SHOPPERS = Number(process.env.SOAK_MAX_SHOPPERS ?? 20);
/** How often the api's memory is read within a window. */
const MEMORY_SAMPLE_MS = 3000;
/** Unmeasured first: the JIT, the caches and the heap settle. */
const WARMUP_SECONDS = 15;
/** Keys stocked per product beyond its share of the orders the soak will place. */
const KEY_MARGIN = 1.5;
const MAX_RSS_GROWTH = 1.1;
const MAX_P99_GROWTH = 1.5;
const PAGE_LOAD = { accept: 'text/html,application/xhtml+xml' };
const MB = 1024 * 1024;

interface CatalogueProduct {
  id: string;
  regularPrice: string;
  salePrice: string | null;
  inStock: boolean;
}

/** As an admin does it: a bulk import of fresh keys for each product. */
async function stockKeys(store: BenchStore, products: BenchProduct[], perProduct: number) {
  const cookie = await signInAsAdmin(store);
  for (const product of products) {
    const keys = Array.from({ length: perProduct }, freshLicenseKey).join('\n');
    const response = await fetch(`${store.apiUrl}/api/license-keys/import`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ productId: product.id, keys }),
    });
    if (!response.ok) throw new Error(`key import: ${response.status} ${await response.text()}`);
  }
}

/**
 * Purchases started at a steady pace (never more than MAX_SHOPPERS in flight: a tick that finds them all busy is
 * skipped and counted), each recorded when captured.
 */
function startShopping(store: BenchStore, products: BenchProduct[]) {
  const purchases: Purchase[] = [];
  const failures: string[] = [];
  let windowLatencies: number[] = [];
  let inFlight = 0;
  let started = 0;
  let skipped = 0;
  const timer = setInterval(() => {
    if (inFlight >= MAX_SHOPPERS) {
      skipped++;
      return;
    }
    inFlight++;
    const shopper = started++;
    buy(store, products[shopper % products.length] as BenchProduct, shopper)
      .then(
        (purchase) => {
          purchases.push(purchase);
          windowLatencies.push(purchase.capturedAt - purchase.startedAt);
        },
        (error: unknown) => failures.push(error instanceof Error ? error.message : String(error)),
      )
      .finally(() => inFlight--);
  }, 1000 / ORDERS_PER_SECOND);
  return {
    purchases,
    failures,
    skipped: () => skipped,
    /** The window's purchase latencies (whole purchase, ms, ascending); the next window starts empty. */
    takeWindow: () => {
      const taken = windowLatencies.sort((a, b) => a - b);
      windowLatencies = [];
      return taken;
    },
    /** No new purchase; resolves once those in flight have ended. */
    stop: async () => {
      clearInterval(timer);
      while (inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 100));
    },
  };
}

interface Window {
  at: number;
  memory: WindowMemory;
  browsing: ReturnType<typeof summarize>;
  orders: number[];
}

/** The middle value: one window stretched by a neighbour's burst (or the start-up's leftovers) does not move it. */
const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

/** Last third of the windows over the first, each third by its median: 1 is flat. */
function growth(windows: Window[], measure: (window: Window) => number | null): number | null {
  const third = Math.max(1, Math.floor(windows.length / 3));
  const values = (part: Window[]) => part.map(measure).filter((value) => value !== null);
  const first = values(windows.slice(0, third));
  const last = values(windows.slice(-third));
  return first.length && last.length ? median(last) / median(first) : null;
}

async function main() {
  const windows = Math.max(3, Math.round((MINUTES * 60) / WINDOW_SECONDS));
  console.log(
    `soak: ${windows} windows of ${WINDOW_SECONDS} s (after ${WARMUP_SECONDS} s warm-up); browsing at ${BROWSE_RATE} ` +
      `requests/s over ${CONNECTIONS} connections, buying ${ORDERS_PER_SECOND} orders/s; ${cpus().length} CPUs ` +
      `(load average ${loadavg()[0]?.toFixed(1)} at start: other work on the machine shows in the latencies), Node ${process.version}`,
  );
  const web = await builtWebClient();
  const mail = await startTestSmtpServer();
  await mail.open();
  const store = await startBenchStore({
    demoStore: true,
    workers: true,
    webDist: web.dir,
    smtpUrl: mail.url,
  });
  try {
    if (!store.apiPid) throw new Error('the api process has no pid');
    const apiPid = store.apiPid;
    const catalogue = (await (await fetch(`${store.apiUrl}/api/products`)).json()) as CatalogueProduct[];
    const products: BenchProduct[] = catalogue
      .filter((product) => product.inStock)
      .map((product) => ({ id: product.id, price: product.salePrice ?? product.regularPrice }));
    const expectedOrders = ORDERS_PER_SECOND * (windows * WINDOW_SECONDS + WARMUP_SECONDS);
    await stockKeys(store, products, Math.ceil((expectedOrders / products.length) * KEY_MARGIN));

    const browse = {
      origin: store.apiUrl,
      requests: [
        { path: '/', headers: PAGE_LOAD },
        { path: '/api/products/featured' },
        { path: '/api/testimonials' },
        { path: '/products', headers: PAGE_LOAD },
        { path: '/api/products' },
        ...catalogue.map((product) => ({ path: `/api/products/${product.id}` })),
      ],
    };
    const options = { connections: CONNECTIONS, seconds: WINDOW_SECONDS, overallRate: BROWSE_RATE };
    const shopping = startShopping(store, products);
    const browsingErrors: string[] = [];
    const samples: Window[] = [];
    const started = performance.now();
    await load(browse, { ...options, seconds: WARMUP_SECONDS });
    shopping.takeWindow();
    const watching = watchMemory(apiPid, store.apiUrl, MEMORY_SAMPLE_MS);
    const rows: string[][] = [];
    const header = [
      'min',
      'api RSS MB',
      'heap floor MB',
      'browse req/s',
      'browse p50 / p99 ms',
      'orders',
      'purchase p99 ms',
    ];
    console.log(`\n${header.join('  |  ')}`);
    for (let index = 0; index < windows; index++) {
      const browsing = summarize([await load(browse, options)], options);
      const orders = shopping.takeWindow();
      const memory = await watching.take();
      const window: Window = { at: (performance.now() - started) / 60_000, memory, browsing, orders };
      samples.push(window);
      const wrong = [...browsing.statuses].filter(([status]) => status >= 400);
      if (wrong.length > 0 || browsing.errors > 0) {
        browsingErrors.push(
          `window ${index + 1}: ${wrong.map(([status, count]) => `${count} × ${status}`).join(', ')}, ${browsing.errors} connection errors`,
        );
      }
      const row = [
        format(window.at, 1),
        format(memory.rss / MB, 1),
        memory.heapFloor === null ? 'n/a' : format(memory.heapFloor / MB, 1),
        format(browsing.requestsPerSecond),
        `${format(browsing.p50, 1)} / ${format(browsing.p99, 1)}`,
        format(orders.length),
        orders.length ? format(percentile(orders, 99)) : '-',
      ];
      rows.push(row);
      console.log(row.join('  |  '));
    }
    watching.stop();
    await shopping.stop();

    console.log('\nSamples (api process; browsing and purchases per window):');
    printTable([header, ...rows]);
    const rssGrowth = growth(samples, (window) => window.memory.rss);
    const heapGrowth = growth(samples, (window) => window.memory.heapFloor);
    const p99Growth = growth(samples, (window) => window.browsing.p99);
    const purchaseP99Growth = growth(samples, (window) =>
      window.orders.length ? percentile(window.orders, 99) : null,
    );
    const ratio = (value: number | null) => (value === null ? 'n/a' : `${format(value, 2)}×`);
    const flat =
      rssGrowth !== null &&
      rssGrowth <= MAX_RSS_GROWTH &&
      (heapGrowth === null || heapGrowth <= MAX_RSS_GROWTH) &&
      p99Growth !== null &&
      p99Growth <= MAX_P99_GROWTH;
    console.log(
      `\nmedian of the last third of the windows against the first's: RSS ${ratio(rssGrowth)}, heap ${ratio(heapGrowth)} ` +
        `(flat: <= ${MAX_RSS_GROWTH}×), browsing p99 ${ratio(p99Growth)} (flat: <= ${MAX_P99_GROWTH}×), ` +
        `purchase p99 ${ratio(purchaseP99Growth)} (info) → ${flat ? 'FLAT' : 'NOT FLAT'}`,
    );
    const completed = shopping.purchases.length;
    console.log(
      `orders: ${format(completed)} captured (${format(shopping.failures.length)} failed, ${format(shopping.skipped())} ` +
        `ticks skipped with ${MAX_SHOPPERS} in flight) in ${format((performance.now() - started) / 60_000, 1)} min`,
    );

    console.log('checking the store: deliveries, keys, e-mails, read models...');
    const facts = await checkCluster(
      store,
      shopping.purchases.map((purchase) => ({ ...purchase, retries: 0 })),
      mail,
      // Nothing is killed in the soak, so no worker's log may excuse an e-mail arriving twice.
      [],
    );
    const problems = [
      ...shopping.failures.map((failure) => `purchase failed: ${failure}`),
      ...browsingErrors.map((error) => `browsing: ${error}`),
      ...facts.problems,
      ...(facts.verify.passed
        ? []
        : [`audit verify: ${facts.verify.mismatches.length} read-model rows differ`]),
    ];
    console.log(
      `  ${format(facts.orders)} orders in the log, ${format(facts.paidOrders)} paid, ${format(facts.keysAssigned)} keys ` +
        `assigned, ${format(facts.deliveryEmails)} delivery e-mails received, read models ${facts.verify.passed ? 'verify' : 'DIFFER'} ` +
        `(${format(facts.verify.events)} events replayed)`,
    );
    console.log(
      problems.length === 0
        ? 'correctness: every paid order has its keys and one e-mail; nothing failed'
        : `correctness: ${problems.length} FAILED:\n${problems
            .slice(0, 20)
            .map((problem) => `  ${problem}`)
            .join('\n')}`,
    );
    if (problems.length > 0) process.exitCode = 1;
  } finally {
    await store.stop();
    await mail.close();
    await web.remove();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
