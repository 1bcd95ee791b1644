/**
 * Backup and restore of a store of BENCH_SCALE size: how fast a full backup reads the log, what a whole restore costs
 * against rebuilding every projector of the same store in the same run, and how much a backup running beside the
 * shop slows its checkouts.
 *
 *   npm run bench:recovery
 *   BENCH_SCALE=0.1 npm run bench:recovery     # a fraction of 1,000,000 orders, or an order count: BENCH_SCALE=20000
 *
 * The history is the scale bench's (bench/support/scale-history.ts), appended in bulk before any role starts. Then,
 * still with no role running, so the two compare on a quiet machine: one full backup; then, in turns, a rebuild of
 * every projector of the store in one pass (the baseline, as `npm run rebuild` does it) and a whole restore of the
 * backup into a new empty database on the same server (log written back, kept tables, every projector rebuilt,
 * the log compared with the backup on the way), that database dropped after each. Then the store starts with its workers, and shoppers buy in turns
 * without and with backups taken one after another in a process of their own, as `npm run backup` runs beside a
 * store; the turns alternate (with, without, without, with, …) and last alike, so drift on a shared machine falls on
 * both sides alike. Each figure prints on its own line, a target's verdict beside it; the run ends with
 * `bench:recovery: N of M targets met` and exits 0 whether or not they were.
 * Knobs: BENCH_SCALE (0.01), BENCH_RECOVERY_ROUNDS (2 rebuilds and 2 restores), BENCH_SHOPPERS (50),
 * BENCH_CHECKOUT_TURNS (6, half of them with backups running), BENCH_CHECKOUT_TURN_SECONDS (10 at least; longer
 * when 2.5 backups of the idle store take longer, and as long as a backup beside the checkouts takes),
 * BENCH_WARMUP (100).
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '@licensestore/platform/db';
import { openEventStore } from '@licensestore/platform/eventstore';
import { silentLogger } from '@licensestore/platform/logging';
import pg from 'pg';
import { allProjectors } from '../projections/src/projectors.js';
import { type RebuildResult, rebuildProjectors } from '../projections/src/rebuild.js';
import type { BackupSummary } from '../scripts/backup/backup.js';
import {
  type CheckedBackup,
  openBackup,
  type RestoreSummary,
  restoreBackup,
} from '../scripts/backup/restore.js';
import { BENCH_BACKUP_PASSPHRASE, backUp } from './support/backup.js';
import { type BackupLoop, startBackupLoop } from './support/backup-loop.js';
import { type Figure, figureReport } from './support/figures.js';
import {
  appendYearOfHistory,
  FULL_ORDERS,
  KEYS_PER_ORDER,
  PRODUCTS,
  scaledOrders,
} from './support/scale-store.js';
import { format, runConcurrently } from './support/stats.js';
import {
  type BenchProduct,
  type BenchStore,
  buy,
  createCatalogueOn,
  startBenchStore,
} from './support/store.js';

const ORDERS = scaledOrders(0.01);
const RECOVERY_ROUNDS = Math.max(1, Number(process.env.BENCH_RECOVERY_ROUNDS ?? 2));
const SHOPPERS = Number(process.env.BENCH_SHOPPERS ?? 50);
const MIN_TURN_MS = Number(process.env.BENCH_CHECKOUT_TURN_SECONDS ?? 10) * 1000;
/** Even, so each side has as many turns first in its pair as second. */
const CHECKOUT_TURNS = Math.max(2, 2 * Math.round(Number(process.env.BENCH_CHECKOUT_TURNS ?? 6) / 2));
/** The least length of a checkout turn, in backups of the idle store. */
const TURN_IN_BACKUPS = 2.5;
const CHECKOUT_WARMUP = Number(process.env.BENCH_WARMUP ?? 100);
const CHECKOUT_PRODUCTS = 20;
const TARGET_RESTORE_RATIO = 1.5;
const TARGET_SLOWDOWN = 0.1;

const seconds = (ms: number) => `${format(ms / 1000, 1)} s`;
const counted = (count: number, what: string) => `${format(count)} ${what}${count === 1 ? '' : 's'}`;
const perSecond = (count: number, ms: number) => count / Math.max(ms / 1000, 0.001);
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
/** A one-pass rebuild ends when its last projector is swapped in. */
const rebuildMs = (rebuilt: RebuildResult[]) => Math.max(0, ...rebuilt.map((result) => result.durationMs));

/** What the quiet part of the run measured, before the store's roles started. */
interface Recovery {
  events: number;
  backup: BackupSummary;
  openMs: number;
  rebuilds: number[];
  restores: RestoreSummary[];
}

/** A new, empty database on the server of `databaseUrl`, and how to drop it. */
async function emptyDatabaseBeside(databaseUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `bench_restore_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } catch (error) {
    await admin.end();
    throw error;
  }
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      try {
        await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
      } finally {
        await admin.end();
      }
    },
  };
}

/** Every projector of the store rebuilt in one pass over its log, as `npm run rebuild` does; how long it took. */
async function rebuildAll(databaseUrl: string): Promise<number> {
  // One connection holds the rebuild's locks while each projector writes on its own.
  const database = openDatabase(databaseUrl, { max: allProjectors.length + 2 });
  const store = await openEventStore({ databaseUrl });
  try {
    const started = performance.now();
    const rebuilt = await rebuildProjectors({
      db: database.db,
      pool: database.pool,
      store,
      projectors: allProjectors,
      log: silentLogger,
    });
    if (rebuilt.length !== allProjectors.length) throw new Error('a projector was not rebuilt');
    return performance.now() - started;
  } finally {
    await Promise.allSettled([database.close(), store.close()]);
  }
}

/** The backup restored whole into a new empty database and DATA_DIR, both removed afterwards. */
async function restoreBeside(databaseUrl: string, backup: CheckedBackup): Promise<RestoreSummary> {
  const target = await emptyDatabaseBeside(databaseUrl);
  const dataDir = await mkdtemp(join(tmpdir(), 'licensestore-bench-restored-'));
  try {
    return await restoreBackup({ backup, databaseUrl: target.url, dataDir, log: silentLogger });
  } finally {
    await target.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * The store's history appended, one full backup of it, then rebuilds of the store and restores of the backup in
 * turns; the store is left projected, its read models vacuumed, for the roles to start on.
 */
async function measureRecovery(databaseUrl: string, licenseKeySecret: string): Promise<Recovery> {
  const scratch = await mkdtemp(join(tmpdir(), 'licensestore-bench-backup-'));
  try {
    const database = openDatabase(databaseUrl, { max: 4 });
    let events: number;
    try {
      ({ events } = await appendYearOfHistory(database.pool, licenseKeySecret, ORDERS));
    } finally {
      await database.close();
    }

    const out = join(scratch, 'backup');
    // The store has no uploads: an empty directory beside the backup stands in for its uploads directory.
    const backup = await backUp({ databaseUrl, licenseKeySecret, uploadsDir: join(scratch, 'uploads') }, out);
    const opening = performance.now();
    const checked = await openBackup(out, BENCH_BACKUP_PASSPHRASE);
    const openMs = performance.now() - opening;

    const rebuilds: number[] = [];
    const restores: RestoreSummary[] = [];
    for (let round = 1; round <= RECOVERY_ROUNDS; round++) {
      const rebuilt = await rebuildAll(databaseUrl);
      rebuilds.push(rebuilt);
      const restored = await restoreBeside(databaseUrl, checked);
      restores.push(restored);
      console.log(
        `round ${round} of ${RECOVERY_ROUNDS}: rebuild ${seconds(rebuilt)}, restore ${seconds(restored.durationMs)}`,
      );
    }
    // A year-old store's read models have had autovacuum's visits long ago; the checkouts should not pay for them.
    const vacuuming = openDatabase(databaseUrl, { max: 1 });
    await vacuuming.pool.query('VACUUM ANALYZE').finally(() => vacuuming.close());
    return { events, backup, openMs, rebuilds, restores };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

function recoveryFigures({ events, backup, openMs, rebuilds, restores }: Recovery): Figure[] {
  const { manifest } = backup;
  const rebuildTotal = sum(rebuilds);
  const restoreTotal = sum(restores.map((restore) => restore.durationMs));
  const ratio = restoreTotal / rebuildTotal;
  const whole = restores.every((restore) => restore.events === manifest.events.count);
  const verified = restores.every((restore) => restore.verify.passed);
  const part = (of: (restore: RestoreSummary) => number) => sum(restores.map(of)) / restores.length;
  const logMs = part((restore) => restore.eventsMs);
  const restoreRebuildMs = part((restore) => rebuildMs(restore.rebuilt));
  const verifyMs = part((restore) => restore.verify.durationMs);
  // A comparison made on the rebuild's read of the log is inside the rebuild's time; a second read is not.
  const readBackMs = part((restore) => (restore.verify.readBack ? restore.verify.durationMs : 0));
  const readBack = restores.some((restore) => restore.verify.readBack);
  const restoreMs = restoreTotal / restores.length;
  const each = (values: number[]) => values.map(seconds).join(', ');
  return [
    {
      label: 'backup',
      value:
        `${format(manifest.events.count)} events in ${seconds(backup.durationMs)} = ` +
        `${format(perSecond(manifest.events.count, backup.durationMs))} events/s whole ` +
        `(the log alone ${seconds(backup.eventsMs)} = ${format(perSecond(manifest.events.count, backup.eventsMs))} events/s)` +
        `${manifest.events.count === events ? '' : `; the store holds ${format(events)}`}`,
    },
    {
      label: 'backup checked before restoring',
      value: `${seconds(openMs)} (every part's SHA-256, the chain, the passphrase), not counted in the restore`,
    },
    {
      label: 'rebuild of every projector (baseline)',
      value:
        `${seconds(rebuildTotal / rebuilds.length)} on average (${each(rebuilds)}) = ` +
        `${format(perSecond(events * rebuilds.length, rebuildTotal))} events/s`,
    },
    {
      label: 'restore, whole',
      value:
        `${seconds(restoreMs)} on average (${each(restores.map((restore) => restore.durationMs))}) = ` +
        `${format(perSecond(manifest.events.count * restores.length, restoreTotal))} events/s; ` +
        `${whole ? 'every event restored' : 'NOT every event restored'}, ` +
        `${verified ? 'the log read as the backup holds it' : 'the log DIFFERS from the backup'}`,
    },
    {
      label: 'restore, its parts',
      value:
        `log written ${seconds(logMs)} (${format(perSecond(manifest.events.count, logMs))} events/s), ` +
        `projectors rebuilt ${seconds(restoreRebuildMs)}, ` +
        (readBack
          ? `log read back ${seconds(verifyMs)}, `
          : `log compared on the rebuild's read ${seconds(verifyMs)} of it, `) +
        `schema, kept tables and secret ${seconds(restoreMs - logMs - restoreRebuildMs - readBackMs)}`,
    },
    {
      label: 'restore / rebuild',
      value: `${format(ratio, 2)} (${restores.length} of each, in turns)`,
      target: {
        text: `<= ${TARGET_RESTORE_RATIO}, the log checked`,
        met: ratio <= TARGET_RESTORE_RATIO && whole && verified,
      },
    },
  ];
}

/** One side of the checkout comparison: its turns' orders and time. */
interface Side {
  name: string;
  orders: number;
  ms: number;
}

/**
 * Checkouts in turns without and with a backup loop beside them (pairs in the order with-without, then without-with,
 * so neither side is always first); a loop is started before its turn and killed at its end.
 */
async function measureCheckoutSlowdown(store: BenchStore, idleBackupMs: number): Promise<Figure[]> {
  const products = await createCatalogueOn(store, CHECKOUT_PRODUCTS);
  let shopper = 0;
  const buyOne = () => buy(store, products[shopper % products.length] as BenchProduct, shopper++);
  await runConcurrently(CHECKOUT_WARMUP, SHOPPERS, async () => {
    await buyOne();
    return 0;
  });
  /** Every shopper buys again until `enough` holds when its purchase ends: the orders, and the time to the last. */
  const shopUntil = async (enough: () => boolean) => {
    let orders = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: SHOPPERS }, async () => {
        while (!enough()) {
          await buyOne();
          orders++;
        }
      }),
    );
    return { orders, ms: performance.now() - started };
  };

  const without: Side = { name: 'without', orders: 0, ms: 0 };
  const beside: Side = { name: 'with', orders: 0, ms: 0 };
  const backups: { events: number; durationMs: number }[] = [];
  // Turns last as long as a few backups of the idle store, whatever its size; a turn beside the loop goes on until
  // one backup has finished, so it holds at least one whole backup (slower under load) and not only the start of one.
  // Every later turn lasts as long as the longest before it, so both sides spend alike on a drifting machine; the
  // first turn has the loop, and sets that length.
  let turnMs = Math.max(MIN_TURN_MS, TURN_IN_BACKUPS * idleBackupMs);
  const turns: string[] = [];
  const target = {
    databaseUrl: store.databaseUrl,
    licenseKeySecret: store.licenseKeySecret,
    uploadsDir: join(store.dataDir, 'uploads'),
  };
  for (let pair = 0; pair < CHECKOUT_TURNS / 2; pair++) {
    for (const side of pair % 2 === 0 ? [beside, without] : [without, beside]) {
      let loop: BackupLoop | undefined;
      if (side === beside)
        loop = await startBackupLoop(target, await mkdtemp(join(tmpdir(), 'licensestore-bench-loop-')));
      try {
        const started = performance.now();
        const run = await shopUntil(
          () => performance.now() - started >= turnMs && (loop === undefined || loop.finished.length > 0),
        );
        side.orders += run.orders;
        side.ms += run.ms;
        turnMs = Math.max(turnMs, run.ms);
        turns.push(`${side.name} ${format(perSecond(run.orders, run.ms), 1)} in ${seconds(run.ms)}`);
      } finally {
        await loop?.stop();
      }
      if (loop) backups.push(...loop.finished);
    }
  }
  const [rateWithout, rateWith] = [without, beside].map((side) => perSecond(side.orders, side.ms)) as [
    number,
    number,
  ];
  const slowdown = 1 - rateWith / rateWithout;
  const backupEvents = sum(backups.map((backup) => backup.events));
  const backupMs = sum(backups.map((backup) => backup.durationMs));
  return [
    {
      label: 'checkout without a backup',
      value: `${format(rateWithout, 1)} orders/s (${format(without.orders)} orders in ${counted(CHECKOUT_TURNS / 2, 'turn')}, ${seconds(without.ms)})`,
    },
    {
      label: 'checkout with backups running',
      value:
        `${format(rateWith, 1)} orders/s (${format(beside.orders)} orders in ${counted(CHECKOUT_TURNS / 2, 'turn')}, ${seconds(beside.ms)}; ` +
        `${counted(backups.length, 'backup')} finished meanwhile` +
        (backups.length > 0
          ? `, ${seconds(backupMs / backups.length)} each = ${format(perSecond(backupEvents, backupMs))} events/s`
          : '') +
        ', and one cut off at the end of each turn)',
    },
    { label: 'checkout turns, orders/s', value: turns.join(', ') },
    {
      label: 'checkout slowdown under backup',
      value: `${format(slowdown * 100, 1)} % (${SHOPPERS} shoppers, the last turn at least ${seconds(turnMs)} long)`,
      target: { text: `<= ${format(TARGET_SLOWDOWN * 100)} %`, met: slowdown <= TARGET_SLOWDOWN },
    },
  ];
}

async function main() {
  const started = performance.now();
  console.log(
    `recovery bench: ${format(ORDERS)} orders, ${format(ORDERS * KEYS_PER_ORDER)} keys, ${PRODUCTS} products ` +
      `(scale ${format(ORDERS / FULL_ORDERS, 3)} of ${format(FULL_ORDERS)} orders), ${cpus().length} cores ` +
      `(load average ${loadavg()[0]?.toFixed(1)} at start), Node ${process.version}`,
  );
  const { report, summary } = figureReport('bench:recovery');
  let recovery: Recovery | undefined;
  const store = await startBenchStore({
    workers: true,
    prepare: async ({ databaseUrl, licenseKeySecret }) => {
      recovery = await measureRecovery(databaseUrl, licenseKeySecret);
    },
  });
  try {
    if (!recovery) throw new Error('the recovery was not measured');
    for (const figure of recoveryFigures(recovery)) report(figure);
    try {
      for (const figure of await measureCheckoutSlowdown(store, recovery.backup.durationMs)) report(figure);
    } catch (error) {
      report({
        label: 'checkout slowdown under backup',
        value: `failed: ${error instanceof Error ? error.message : String(error)}`,
        target: { text: `<= ${format(TARGET_SLOWDOWN * 100)} %`, met: false },
      });
    }
  } finally {
    await store.stop();
  }
  console.log(`whole run: ${seconds(performance.now() - started)} on ${cpus().length} cores`);
  console.log(summary());
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
