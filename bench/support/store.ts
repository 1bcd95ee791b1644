import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inventoryDecider, licenseKeysStream, productDecider, productStream } from '@licensestore/domain';
import { handleCommand } from '@licensestore/domain/commands';
import type { EventStore, Position } from '@licensestore/domain/events';
import { type DatabaseHandle, openDatabase } from '@licensestore/platform/db';
import { openEventStore } from '@licensestore/platform/eventstore';
import { createKeyVault } from '@licensestore/platform/key-vault';
import { silentLogger } from '@licensestore/platform/logging';
import { waitForProjections } from '@licensestore/platform/readmodel';
import pg from 'pg';
import { startProjections } from '../../projections/src/index.js';
import { build } from '../../scripts/build.js';
import { prepareStore } from '../../scripts/lib/prepare.js';
import { type RoleName, spawnRole } from '../../scripts/lib/roles.js';
import { startEmbeddedPostgres } from '../../scripts/stack/embedded-postgres.js';
import { freePort } from '../../scripts/stack/free-port.js';
import { startRedisServer } from '../../scripts/stack/redis-server.js';
import { nextShopperAddress, shopperPost } from '../../scripts/testing/shoppers.js';
import type { Counted } from './cpu.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

type Stop = () => Promise<unknown>;

async function stopAll(stops: Stop[]) {
  for (const step of stops.splice(0).reverse()) await step().catch((error: unknown) => console.error(error));
}

export interface BenchStore {
  databaseUrl: string;
  redisUrl: string;
  /** The api's origin. */
  apiUrl: string;
  /** The standalone PayPal emulator's REST base (`…/paypal-sandbox`). */
  paypalUrl: string;
  /** Scratch DATA_DIR the roles share (mail, secrets). */
  dataDir: string;
  licenseKeySecret: string;
  /** The first admin's password (username `admin`). */
  adminPassword: string;
  /** The api role's process id, for its memory figures. */
  apiPid: number | undefined;
  /** The processes whose CPU time the bench reports (this one counted as the shoppers). */
  counted: Counted[];
  stop: () => Promise<void>;
}

export interface BenchStoreOptions {
  /** Roles beside the api: the projections always, the workers when the bench needs side effects. */
  workers?: boolean;
  /** Runs the projections in this process instead of a child (BENCH_PROJECTIONS=in-process). */
  projectionsInProcess?: boolean;
  /** Seeds the demo store (catalogue, keys, testimonials) as `npm start` does, projected before this resolves. */
  demoStore?: boolean;
  /** The built web client the api serves (WEB_DIST); default this checkout's web/dist. */
  webDist?: string;
  /** Where the roles send e-mail (SMTP_URL); default .eml files under the data directory. */
  smtpUrl?: string;
  /**
   * Fills the store before any role starts, once every schema exists, with the secret the roles open keys with:
   * a history the roles find already projected instead of catching up on it while a bench measures them.
   */
  prepare?: (store: { databaseUrl: string; licenseKeySecret: string }) => Promise<void>;
  /**
   * Runs the roles on a store that already exists (a restored one, say): its database, its DATA_DIR, the license-key
   * secret its keys are sealed with and its first admin's password. Nothing is made in it, and stop leaves it there.
   */
  existing?: { databaseUrl: string; dataDir: string; licenseKeySecret: string; adminPassword: string };
}

/**
 * The store as production runs it, for benchmarks: Postgres and Redis (embedded in a temporary directory unless
 * DATABASE_URL / REDIS_URL are set, then a new database on that server, dropped afterwards), the api and the other
 * roles as child processes from the build, and the PayPal emulator standalone, because PayPal is not on the store's
 * machine.
 */
export async function startBenchStore(options: BenchStoreOptions = {}): Promise<BenchStore> {
  const stops: Stop[] = [];
  try {
    const { existing } = options;
    const dataDir = existing?.dataDir ?? (await scratchDataDir(stops));
    const databaseUrl = existing?.databaseUrl ?? (await benchDatabase(dataDir, stops));
    let redisUrl = process.env.REDIS_URL;
    if (!redisUrl) {
      const redis = await startRedisServer(join(dataDir, 'redis'));
      stops.push(() => redis.stop());
      redisUrl = redis.url;
    }

    const counted: Counted[] = [{ name: 'shoppers (this process)', pid: process.pid, descendants: false }];
    const licenseKeySecret = existing?.licenseKeySecret ?? randomBytes(32).toString('base64url');
    const adminPassword = existing?.adminPassword ?? randomBytes(16).toString('hex');
    const seeded =
      options.demoStore || options.prepare
        ? await prepareStore({ databaseUrl, licenseKeySecret, seedDemo: !!options.demoStore, log: () => {} })
        : { lastPosition: null };
    await options.prepare?.({ databaseUrl, licenseKeySecret });
    const [apiPort, paypalPort] = [await freePort(), await freePort()];
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    const paypalOrigin = `http://127.0.0.1:${paypalPort}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'error',
      PORT: String(apiPort),
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      SESSION_SECRET: randomBytes(32).toString('hex'),
      ADMIN_PASSWORD: adminPassword,
      LICENSE_KEY_SECRET: licenseKeySecret,
      SELLER_NAME: 'LicenseStore Bench Ltd',
      SELLER_ADDRESS: '1 Bench Street;Springfield',
      // A production start that takes no money says so; the emulator stands in for PayPal.
      PAYPAL_SIMULATED: '1',
      PAYPAL_API_BASE_URL: `${paypalOrigin}/paypal-sandbox`,
      PUBLIC_URL: apiUrl,
      // Each purchase comes from its own client address (X-Forwarded-For), as the shoppers of a real shop do.
      TRUST_PROXY: 'loopback',
      ...(options.webDist ? { WEB_DIST: options.webDist } : {}),
      ...(options.smtpUrl ? { SMTP_URL: options.smtpUrl } : {}),
    };
    const built = await builtRoles();
    const role = (name: RoleName) => {
      const process = spawnRole(built, name, env, (line) => console.error(line), name, 'built');
      stops.push(() => process.stop(10_000));
      if (process.child.pid) counted.push({ name, pid: process.child.pid, descendants: true });
      return process.child.pid;
    };

    if (options.projectionsInProcess) {
      stops.push(await startProjections({ databaseUrl, logger: silentLogger }));
    } else {
      role('projections');
    }
    const paypal = spawnHelper('services/paypal-sandbox/src/main.ts', {
      PORT: String(paypalPort),
      HOST: '127.0.0.1',
      PAYPAL_SANDBOX_WEBHOOK_URL: `${apiUrl}/paypal/webhook`,
      LOG_LEVEL: 'error',
    });
    stops.push(() => paypal.stop(10_000));
    if (paypal.pid) counted.push({ name: 'PayPal emulator', pid: paypal.pid, descendants: true });
    const apiPid = role('api');
    if (options.workers) role('workers');
    await Promise.all([
      waitUntilAnswering(`${apiUrl}/api/payments/config`),
      waitUntilAnswering(`${paypalOrigin}/healthz`),
    ]);
    if (seeded.lastPosition) {
      const database = openDatabase(databaseUrl, { max: 1 });
      await waitUntilProjected(database, seeded.lastPosition, ['products', 'license-keys']).finally(() =>
        database.close(),
      );
    }
    return {
      databaseUrl,
      redisUrl,
      apiUrl,
      paypalUrl: `${paypalOrigin}/paypal-sandbox`,
      dataDir,
      licenseKeySecret,
      adminPassword,
      apiPid,
      counted,
      stop: () => stopAll(stops),
    };
  } catch (error) {
    await stopAll(stops);
    throw error;
  }
}

async function scratchDataDir(stops: Stop[]): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), 'licensestore-bench-'));
  // As root, Postgres runs as the postgres user, which must be able to reach its data directory.
  await chmod(dataDir, 0o755);
  stops.push(() => rm(dataDir, { recursive: true, force: true }));
  return dataDir;
}

let building: Promise<string> | undefined;

/**
 * The roles as the image runs them: `npm run build`'s output, with plain node. Built once per bench process, under
 * the repository (whose node_modules the output resolves from), and removed when the process exits.
 */
function builtRoles(): Promise<string> {
  building ??= (async () => {
    const out = join(ROOT, `.bench-build-${process.pid}`);
    process.once('exit', () => rmSync(out, { recursive: true, force: true }));
    await build({ out, web: false });
    return out;
  })();
  return building;
}

async function benchDatabase(dataDir: string, stops: Stop[]): Promise<string> {
  const given = process.env.DATABASE_URL;
  if (!given) {
    const server = await startEmbeddedPostgres(join(dataDir, 'postgres'));
    stops.push(() => server.stop());
    await server.createDatabase('bench');
    return server.url('bench');
  }
  const name = `bench_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: given });
  // A bench may kill the server under the store (a machine's death): the dropped connection is no error of this one.
  admin.on('error', () => {});
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  stops.push(async () => {
    await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
    await admin.end();
  });
  const url = new URL(given);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A process that is not a role of the store (the emulator), run from its sources: `node --import tsx <entry>`. */
export function spawnHelper(entry: string, env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, entry)], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    pid: child.pid,
    stop: async (graceMs: number) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

export async function waitUntilAnswering(url: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface BenchProduct {
  id: string;
  price: string;
}

/** A catalogue created on a running bench store, through connections of its own that are closed after. */
export async function createCatalogueOn(store: BenchStore, count: number): Promise<BenchProduct[]> {
  const database = openDatabase(store.databaseUrl, { max: 2 });
  const eventStore = await openEventStore({ databaseUrl: store.databaseUrl });
  try {
    return await createCatalogue(eventStore, database, count);
  } finally {
    await Promise.allSettled([database.close(), eventStore.close()]);
  }
}

/** A catalogue to buy from (half of it on sale), created through the command path and visible to the api. */
export async function createCatalogue(
  eventStore: EventStore,
  database: DatabaseHandle,
  count: number,
): Promise<BenchProduct[]> {
  const products: BenchProduct[] = [];
  let lastPosition: Position | null = null;
  for (let i = 0; i < count; i++) {
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
          name: `Bench license ${i}`,
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
      },
    );
    lastPosition = outcome.appended?.position ?? lastPosition;
    products.push({ id, price: onSale ? `${10 + i}.49` : `${20 + i}.99` });
  }
  if (lastPosition) await waitUntilProjected(database, lastPosition, ['products']);
  return products;
}

/**
 * Until the projectors have passed `position`. The projections role may still be starting (migrating its tables):
 * look again until it has.
 */
async function waitUntilProjected(database: DatabaseHandle, position: Position, projectors: string[]) {
  const deadline = Date.now() + 60_000;
  while (!(await waitForProjections(database.pool, position, { projectors, timeoutMs: 1000 }))) {
    if (Date.now() > deadline) throw new Error(`the projections never caught up with ${position}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The first admin's session cookie (`sid=…`), signed in as the back office does. */
export async function signInAsAdmin(store: BenchStore): Promise<string> {
  const response = await fetch(`${store.apiUrl}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: store.adminPassword }),
  });
  const cookie = response.headers.getSetCookie().find((header) => header.startsWith('sid='));
  if (!response.ok || !cookie) throw new Error(`admin sign-in: ${response.status} ${await response.text()}`);
  return cookie.split(';')[0] as string;
}

/** A shopper's POST that succeeds: its answer's body and the cookies it sets. */
async function post(url: string, body: unknown, from: { address: string; cookie?: string | undefined }) {
  const { status, text, cookies } = await shopperPost(url, body, from);
  if (status >= 300) throw new Error(`${url}: ${status} ${text}`);
  return { body: JSON.parse(text) as Record<string, unknown>, cookies };
}

export interface Purchase {
  orderId: string;
  paypalOrderId: string;
  /** performance.now() when the purchase started and when the capture was asked for and answered. */
  startedAt: number;
  captureStartedAt: number;
  capturedAt: number;
  /** The paying browser's access to the order (`order_access=…`, set by the capture): what shows it its keys. */
  orderCookie: string | undefined;
}

/** One shopper's purchase as the browser makes it: create the PayPal order, approve it, capture it. */
export async function buy(store: BenchStore, product: BenchProduct, shopper: number): Promise<Purchase> {
  const startedAt = performance.now();
  const address = nextShopperAddress();
  const buyer = { customerName: `Shopper ${shopper}`, customerEmail: `shopper${shopper}@example.com` };
  const started = await post(
    `${store.apiUrl}/paypal/order`,
    {
      amount: product.price,
      currency: 'USD',
      intent: 'CAPTURE',
      items: [{ productId: product.id, quantity: 1 }],
      ...buyer,
    },
    { address },
  );
  const id = String(started.body.id);
  // Only the browser that started the checkout may capture it: the cookie goes back with the capture.
  const cookie = started.cookies.find((pair) => pair.startsWith('checkout_access='));
  await post(`${store.paypalUrl}/buyer/orders/${id}/approve`, { choice: 'approve' }, { address });
  const captureStartedAt = performance.now();
  const { body: order, cookies } = await post(`${store.apiUrl}/paypal/order/${id}/capture`, buyer, {
    address,
    cookie,
  });
  // Paid: waiting for its keys, or already served when delivery outran the capture's read-your-writes answer.
  if (order.status !== 'processing' && order.status !== 'completed') {
    throw new Error(`order ${String(order.id)} is ${String(order.status)}`);
  }
  return {
    orderId: String(order.id),
    paypalOrderId: String(id),
    startedAt,
    captureStartedAt,
    capturedAt: performance.now(),
    orderCookie: cookies.find((pair) => pair.startsWith('order_access=')),
  };
}

/**
 * `perProduct` license keys for each product (`prefix` then a random UUID), sealed with the store's secret and added
 * through the command path as the back office adds them.
 */
export async function stockKeys(
  eventStore: EventStore,
  secret: string,
  products: BenchProduct[],
  perProduct: number,
  prefix = '',
): Promise<void> {
  const vault = createKeyVault(secret);
  for (const product of products) {
    const keys = Array.from({ length: perProduct }, () => {
      const key = `${prefix}${randomUUID().toUpperCase()}`;
      return { keyId: randomUUID(), key: vault.seal(key), fingerprint: vault.fingerprint(key) };
    });
    await handleCommand(
      eventStore,
      licenseKeysStream(product.id),
      inventoryDecider,
      {
        type: 'AddLicenseKeys',
        productId: product.id,
        keys,
        lowStockThreshold: 0,
        now: new Date().toISOString(),
      },
      { actor: { type: 'admin', id: 'bench' }, correlationId: 'bench', causationId: 'bench' },
    );
  }
}
