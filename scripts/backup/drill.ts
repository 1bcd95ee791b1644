/**
 * The recovery drill: proof, run monthly and in CI, that the store comes back from its backups.
 *
 *   npm run recovery:drill                      (DRILL_ORDERS=300 by default; DRILL_SHOPPERS=8 at a time)
 *
 * Builds a store (as production runs it: roles from the build, embedded Postgres and Redis, the PayPal emulator)
 * with orders, refunds, pending payments, receipts, key showings and reveals and uploaded images; takes a full
 * backup, then increments while purchases go on; records what was there; destroys the store, data directory and
 * all; restores the backups into a new one; and compares every read-model row, every kept row, every receipt, the
 * log's hash-chain head, a sample of opened keys and the images with what was there. Then it starts the roles on
 * the restored store and sells the next key. One line per check; the last line is `recovery drill: N of M checks`,
 * and any miss makes the exit code 1.
 *
 * With BENCH_SCALE set (as for `npm run bench:scale`: a fraction of 1,000,000 orders, or an order count) the store is
 * first filled with the year of business that bench builds, the same generator appended and projected the same way,
 * and all of the above happens on top of it; every comparison covers the history's rows too. Each phase's time goes
 * to stderr as it ends.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventStore } from '@licensestore/domain/events';
import { type DatabaseHandle, openDatabase } from '@licensestore/platform/db';
import { openBareEventStore, openEventStore } from '@licensestore/platform/eventstore';
import { createKeyVault } from '@licensestore/platform/key-vault';
import { silentLogger } from '@licensestore/platform/logging';
import {
  type BenchProduct,
  type BenchStore,
  buy,
  createCatalogue,
  type Purchase,
  signInAsAdmin,
  startBenchStore,
  stockKeys,
} from '../../bench/support/store.js';
import { verifyReadModels } from '../../projections/src/audit/verify.js';
import { allProjectors } from '../../projections/src/projectors.js';
import { startEmbeddedPostgres } from '../stack/embedded-postgres.js';
import { takeBackup } from './backup.js';
import {
  fillWithHistory,
  type GeneratedHistory,
  historyScale,
  settleReactorAfterHistory,
} from './drill-history.js';
import {
  refund,
  revealFirstKey,
  servedImage,
  shop,
  shownKeys,
  startPendingPayment,
  uploadImage,
  waitForOrders,
  waitUntilQuiet,
} from './drill-shop.js';
import {
  asSourcePositions,
  type Check,
  chainOver,
  compareSnapshots,
  type RowsAs,
  takeSnapshot,
} from './drill-snapshot.js';
import { openBackup, restoreBackup } from './restore.js';

const ORDERS = Number(process.env.DRILL_ORDERS ?? 300);
const SHOPPERS = Number(process.env.DRILL_SHOPPERS ?? 8);
/** Orders whose keys are opened from the restored store and compared with what their buyers were shown. */
const KEY_SAMPLE = Number(process.env.DRILL_KEY_SAMPLE ?? 20);
const PRODUCTS = 4;
const PASSPHRASE = randomBytes(24).toString('base64url');

const progress = (line: string) => console.error(`recovery drill: ${line}`);
const SCALE = historyScale();
/**
 * Rows kept whole at the drill's own size; at a scale, each row's digest, so that a history of millions of rows is
 * compared row by row without holding its text twice in memory.
 */
const ROWS_AS: RowsAs = SCALE ? 'digest' : 'text';

const seconds = (ms: number) => (ms / 1000).toFixed(1);

/** Runs one phase of the drill and says on stderr how long it took. */
async function phase<T>(name: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await run();
  progress(`${name}: ${seconds(performance.now() - started)} s`);
  return result;
}

/** What the source store showed and held, to hold the restored one to. */
interface Seen {
  /** Keys as each sampled order's buyer was shown them, sorted. */
  shown: Map<string, string[]>;
  /** Keys as the admin's reveal showed them, by order. */
  revealed: Map<string, string>;
  images: Array<{ id: string; bytes: Buffer }>;
  pendingPayments: number;
  refunds: number;
}

/**
 * What happens to a store in a day, to the orders just bought: some are refunded, some have a key revealed by the
 * admin, a sample of buyers look at their keys, a few shoppers leave a payment pending, and an image is uploaded.
 * Returns once every order is served and the store has nothing left to do.
 */
async function aDayOfTrade(
  store: BenchStore,
  database: DatabaseHandle,
  context: { admin: string; products: BenchProduct[]; bareStore: EventStore; seen: Seen },
  bought: Purchase[],
) {
  const { admin, products, seen } = context;
  const refunded = bought.filter((_, i) => i % 10 === 3);
  const kept = bought.filter((_, i) => i % 10 !== 3);
  await waitForOrders(database.pool, new Map(bought.map((purchase) => [purchase.orderId, 'completed'])));
  for (const purchase of refunded) await refund(store, admin, purchase.orderId);
  seen.refunds += refunded.length;
  const sampleEvery = Math.max(1, Math.floor(ORDERS / KEY_SAMPLE));
  for (const [i, purchase] of kept.entries()) {
    if (i % sampleEvery === 0) seen.shown.set(purchase.orderId, await shownKeys(store, purchase));
    if (i % 15 === 1)
      seen.revealed.set(purchase.orderId, await revealFirstKey(store, admin, purchase.orderId));
  }
  for (let i = 0; i < Math.max(1, Math.floor(bought.length / 20)); i++) {
    await startPendingPayment(store, products[i % products.length] as BenchProduct, seen.pendingPayments++);
  }
  seen.images.push(await uploadImage(store, admin));
  await waitForOrders(
    database.pool,
    new Map([
      ...kept.map((purchase) => [purchase.orderId, 'completed'] as const),
      ...refunded.map((purchase) => [purchase.orderId, 'refunded'] as const),
    ]),
  );
  return waitUntilQuiet(database.pool, context.bareStore);
}

async function main(): Promise<Check[]> {
  const drillStarted = performance.now();
  const checks: Check[] = [];
  const check = (result: Check) => {
    checks.push(result);
    console.log(`${result.passed ? '✓' : '✗'} ${result.name}: ${result.detail}`);
  };
  const work = await mkdtemp(join(tmpdir(), 'recovery-drill-'));
  // As root, the restored store's Postgres runs as the postgres user, which must be able to reach its directory.
  await chmod(work, 0o755);
  const cleanups: Array<() => Promise<unknown>> = [];
  const cleanUp = async () => {
    for (const step of cleanups.splice(0).reverse())
      await step().catch((error: unknown) => console.error(error));
  };
  cleanups.push(() => rm(work, { recursive: true, force: true }));
  try {
    // The store to lose.
    progress(`building a store: ${ORDERS} orders, ${SHOPPERS} shoppers at a time`);
    const started = performance.now();
    let history: GeneratedHistory | null = null;
    const source = await phase(SCALE ? 'store started on a generated history' : 'store started', () =>
      startBenchStore({
        workers: true,
        ...(SCALE && {
          prepare: async ({ databaseUrl, licenseKeySecret }) => {
            history = await fillWithHistory(databaseUrl, licenseKeySecret, progress);
          },
        }),
      }),
    );
    cleanups.push(() => source.stop());
    const generated = history as GeneratedHistory | null;
    console.log(
      SCALE && generated
        ? `recovery drill at BENCH_SCALE=${process.env.BENCH_SCALE} (${SCALE.orders.toLocaleString('en')} orders, ` +
            `${SCALE.ofFull} of 1,000,000): a generated history of ${generated.orders.toLocaleString('en')} orders, ` +
            `${generated.keysAdded.toLocaleString('en')} keys added, ${generated.keysAssigned.toLocaleString('en')} ` +
            `sold, ${generated.refunds.toLocaleString('en')} refunds, ${generated.events.toLocaleString('en')} events; ` +
            `then ${ORDERS} orders bought live`
        : `recovery drill without BENCH_SCALE: no generated history; ${ORDERS} orders bought live`,
    );
    const database = openDatabase(source.databaseUrl, { max: 4 });
    const eventStore = await openEventStore({ databaseUrl: source.databaseUrl });
    const bareStore = await openBareEventStore({ databaseUrl: source.databaseUrl });
    let sourceClosed: Promise<unknown> | undefined;
    const closeSource = () => {
      sourceClosed ??= Promise.all([database.close(), eventStore.close(), bareStore.close()]);
      return sourceClosed;
    };
    cleanups.push(closeSource);
    const products = await createCatalogue(eventStore, database, PRODUCTS);
    await stockKeys(
      eventStore,
      source.licenseKeySecret,
      products,
      Math.ceil(ORDERS / PRODUCTS) + 4,
      'DRILL-',
    );
    const admin = await signInAsAdmin(source);
    const seen: Seen = { shown: new Map(), revealed: new Map(), images: [], pendingPayments: 0, refunds: 0 };
    const context = { admin, products, bareStore, seen };

    const backups = join(work, 'backups');
    const backupOf = (out: string, since?: string) =>
      takeBackup({
        store: bareStore,
        eventStore: 'postgres',
        pool: database.pool,
        uploadsDir: join(source.dataDir, 'uploads'),
        s3: null,
        secrets: { LICENCE_KEY_SECRET: source.licenseKeySecret },
        passphrase: PASSPHRASE,
        out,
        since,
      });
    const parts = [
      join(backups, 'full'),
      join(backups, 'increment-1'),
      join(backups, 'increment-2'),
    ] as const;

    const first = Math.ceil(ORDERS / 2);
    await phase('first orders bought and served', async () =>
      aDayOfTrade(
        source,
        database,
        context,
        await shop(source, products, { from: 0, count: first, concurrency: SHOPPERS }),
      ),
    );
    const full = await phase('full backup', () => backupOf(parts[0]));
    progress(`full backup: ${full.manifest.events.count} events`);

    // Purchases go on while the first increment is taken.
    const second = ORDERS - first;
    let midway: () => void = () => {};
    const halfBought = new Promise<void>((resolve) => {
      midway = resolve;
    });
    const shopping = shop(source, products, { from: first, count: second, concurrency: SHOPPERS }, (done) => {
      if (done >= Math.floor(second / 2)) midway();
    });
    await Promise.race([halfBought, shopping]);
    const increment1 = await phase('increment 1', () => backupOf(parts[1], parts[0]));
    progress(`increment 1, taken while shoppers bought: ${increment1.manifest.events.count} events`);
    const head = await phase('the other orders bought and served', async () =>
      aDayOfTrade(source, database, context, await shopping),
    );
    const increment2 = await phase('increment 2', () => backupOf(parts[2], parts[1]));
    progress(`increment 2: ${increment2.manifest.events.count} events`);

    // What was there: the store as the last increment took it.
    const before = await phase('source snapshot', () =>
      takeSnapshot(database.pool, eventStore, undefined, ROWS_AS),
    );
    const sourceChain = await phase('source hash chain', () =>
      chainOver(bareStore, full.manifest.events.chain.genesis),
    );
    check({
      name: 'the source stood still while its last increment was taken',
      passed: sourceChain.positions.at(-1) === head && increment2.manifest.events.lastPosition === head,
      detail: `log end ${head}, the increment's ${increment2.manifest.events.lastPosition}, now ${sourceChain.positions.at(-1)}`,
    });
    // The greatest receipt number in code-unit order (collation C), as a string comparison in JavaScript orders them.
    const { rows: lastReceipts } = await database.pool.query<{ receipt_number: string }>(
      `SELECT receipt_number FROM orders WHERE receipt_number IS NOT NULL
        ORDER BY receipt_number COLLATE "C" DESC LIMIT 1`,
    );
    const lastReceipt = lastReceipts[0]?.receipt_number;
    const { licenseKeySecret, adminPassword } = source;
    progress(
      `built in ${Math.round((performance.now() - started) / 1000)} s: ${seen.refunds} refunds, ` +
        `${seen.pendingPayments} payments pending, ${seen.shown.size} buyers shown their keys, ` +
        `${seen.revealed.size} keys revealed, ${seen.images.length} images; destroying it`,
    );

    // The loss: the store's roles, database, uploads and secrets, all gone.
    await phase('source destroyed', async () => {
      await closeSource();
      await source.stop();
    });
    if (existsSync(source.dataDir))
      throw new Error(`${source.dataDir} is still there after the store was destroyed`);

    const restoring = performance.now();
    const target = join(work, 'restored');
    await mkdir(target, { mode: 0o755 });
    const postgres = await startEmbeddedPostgres(join(target, 'postgres'));
    cleanups.push(() => postgres.stop());
    await postgres.createDatabase('store');
    const databaseUrl = postgres.url('store');
    const summary = await phase('restore (log written, projectors rebuilt, log compared)', async () =>
      restoreBackup({
        backup: await openBackup([...parts], PASSPHRASE),
        databaseUrl,
        dataDir: target,
        log: silentLogger,
      }),
    );
    progress(`restored ${summary.events} events in ${Math.round((performance.now() - restoring) / 1000)} s`);
    check({
      name: 'the restored log, as the backup holds it',
      passed: summary.verify.passed,
      detail: summary.verify.difference ?? `${summary.verify.events} events as the backup holds them`,
    });
    const verify = await phase('read models verified by a second replay, as audit:verify does', async () => {
      const database = openDatabase(databaseUrl, { max: allProjectors.length + 2 });
      const store = await openEventStore({ databaseUrl });
      try {
        return await verifyReadModels({ db: database.db, pool: database.pool, store, log: silentLogger });
      } finally {
        await Promise.all([store.close(), database.close()]);
      }
    });
    check({
      name: 'read-model verification of the restored store',
      passed: verify.passed,
      detail: `${verify.events} events replayed, ${verify.tables.length} tables compared, ${
        verify.mismatches.length + verify.unshownMismatches
      } mismatches`,
    });

    const restored = openDatabase(databaseUrl, { max: 4 });
    const restoredStore = await openEventStore({ databaseUrl });
    const restoredBare = await openBareEventStore({ databaseUrl });
    cleanups.push(() => Promise.all([restored.close(), restoredStore.close(), restoredBare.close()]));
    const asBefore = asSourcePositions(sourceChain.positions);
    const after = await phase('restored snapshot', () =>
      takeSnapshot(restored.pool, restoredStore, asBefore, ROWS_AS),
    );
    for (const result of compareSnapshots(before, after)) check(result);

    const chain = await phase('restored hash chain', () =>
      chainOver(restoredBare, full.manifest.events.chain.genesis, asBefore),
    );
    const manifestHead = increment2.manifest.events.chain.head;
    check({
      name: 'hash-chain head',
      passed:
        chain.head === manifestHead && chain.head === sourceChain.head && chain.count === sourceChain.count,
      detail:
        `recomputed over the restored log (${chain.count} events, positions by their global part): ${chain.head}; ` +
        `the last increment's manifest: ${manifestHead}; the source log's (${sourceChain.count} events): ${sourceChain.head}`,
    });

    const restoredSecret = (await readFile(summary.secretFile, 'utf8')).trim();
    check({
      name: 'license-key secret',
      passed: restoredSecret === licenseKeySecret,
      detail:
        restoredSecret === licenseKeySecret
          ? `restored to ${summary.secretFile}`
          : 'differs from the one the keys were sealed with',
    });
    check(await phase('opened keys', () => openedKeys(restored, createKeyVault(restoredSecret), seen)));

    // The restored store at work: the roles started on it, the admin back in, the images served, the next key sold.
    if (generated) await settleReactorAfterHistory(restored.pool, generated);
    const next = await phase('restored store started', () =>
      startBenchStore({
        workers: true,
        existing: { databaseUrl, dataDir: target, licenseKeySecret: restoredSecret, adminPassword },
      }),
    );
    cleanups.push(() => next.stop());
    const images = await Promise.all(
      seen.images.map(async (image) => ({ image, served: await servedImage(next, image.id) })),
    );
    const wrong = images.filter(({ image, served }) => !served?.equals(image.bytes));
    check({
      name: 'uploaded images',
      passed: wrong.length === 0,
      detail:
        wrong.length === 0
          ? `${images.length} served as uploaded`
          : `${wrong.length} of ${images.length} not served as uploaded (first ${wrong[0]?.image.id})`,
    });
    const signedIn = await signInAsAdmin(next).then(
      () => null,
      (error: unknown) => (error as Error).message,
    );
    check({
      name: 'admin sign-in',
      passed: signedIn === null,
      detail: signedIn ?? 'with the password of before',
    });
    check(
      await phase('next key sold', () =>
        sellTheNextKey(
          next,
          restored,
          createKeyVault(restoredSecret),
          products[0] as BenchProduct,
          lastReceipt,
        ),
      ),
    );
  } catch (error) {
    check({
      name: 'the drill ran to its end',
      passed: false,
      detail: (error as Error).stack ?? String(error),
    });
  } finally {
    await cleanUp();
  }
  progress(`whole run: ${seconds(performance.now() - drillStarted)} s`);
  return checks;
}

/** A sample of sold keys, opened from the restored store with the restored secret, against what was shown before. */
async function openedKeys(
  database: DatabaseHandle,
  vault: ReturnType<typeof createKeyVault>,
  seen: Seen,
): Promise<Check> {
  const misses: string[] = [];
  const orders = new Set([...seen.shown.keys(), ...seen.revealed.keys()]);
  let opened = 0;
  for (const orderId of orders) {
    const { rows } = await database.pool.query<{ key_sealed: string }>(
      'SELECT key_sealed FROM license_keys WHERE order_id::text = $1',
      [orderId],
    );
    const keys = rows.map((row) => vault.open(row.key_sealed)).sort();
    opened += keys.length;
    const shown = seen.shown.get(orderId);
    const revealed = seen.revealed.get(orderId);
    if (shown && JSON.stringify(keys) !== JSON.stringify(shown))
      misses.push(`order ${orderId}: shown ${shown}, opened ${keys}`);
    if (revealed && !keys.includes(revealed))
      misses.push(`order ${orderId}: revealed ${revealed}, opened ${keys}`);
  }
  return {
    name: 'opened keys',
    passed: misses.length === 0 && orders.size > 0,
    detail:
      misses.length > 0
        ? `${misses.length} of ${orders.size} orders differ (first ${misses[0]})`
        : `${opened} keys of ${orders.size} orders (${seen.shown.size} as their buyers saw them, ${seen.revealed.size} as revealed) equal`,
  };
}

/** One purchase on the restored store: served, with one key that opens, and the receipt number after the last. */
async function sellTheNextKey(
  store: BenchStore,
  database: DatabaseHandle,
  vault: ReturnType<typeof createKeyVault>,
  product: BenchProduct,
  lastReceipt: string | undefined,
): Promise<Check> {
  const purchase = await buy(store, product, ORDERS + 1);
  await waitForOrders(database.pool, new Map([[purchase.orderId, 'completed']]));
  const shown = await shownKeys(store, purchase);
  const { rows } = await database.pool.query<{ key_sealed: string }>(
    'SELECT key_sealed FROM license_keys WHERE order_id::text = $1',
    [purchase.orderId],
  );
  const { rows: order } = await database.pool.query<{ receipt_number: string }>(
    'SELECT receipt_number FROM orders WHERE id::text = $1',
    [purchase.orderId],
  );
  const receipt = order[0]?.receipt_number;
  const opened = rows.map((row) => vault.open(row.key_sealed));
  const passed =
    shown.length === 1 &&
    opened.length === 1 &&
    opened[0] === shown[0] &&
    receipt !== undefined &&
    (lastReceipt === undefined || receipt > lastReceipt);
  return {
    name: 'sell the next key',
    passed,
    detail: `order ${purchase.orderId} served with ${shown.length} key (${opened.length} sealed for it), receipt ${receipt} after ${lastReceipt}`,
  };
}

const checks = await main();
const passed = checks.filter((result) => result.passed).length;
console.log(`recovery drill: ${passed} of ${checks.length} checks`);
process.exit(passed === checks.length && checks.length > 0 ? 0 : 1);
