// The year of business the scale benchmarks (and the recovery drill) build: a generated history appended in bulk,
// then projected, each phase timed with its CPU.
import { cpus } from 'node:os';
import { openDatabase } from '@licensestore/platform/db';
import { openEventStore } from '@licensestore/platform/eventstore';
import { createKeyVault } from '@licensestore/platform/key-vault';
import { silentLogger } from '@licensestore/platform/logging';
import type pg from 'pg';
import { allProjectors } from '../../projections/src/projectors.js';
import { rebuildProjectors } from '../../projections/src/rebuild.js';
import { appendInBulk, type BulkAppend } from '../../projections/test/support/catalogue.js';
import { cpuSnapshot } from './cpu.js';
import { type ScaleCounts, scaleHistory } from './scale-history.js';
import { format } from './stats.js';

/** A year of business at full size. */
export const FULL_ORDERS = 1_000_000;
export const KEYS_PER_ORDER = 2;
export const PRODUCTS = 200;

/** BENCH_SCALE's orders: a fraction of FULL_ORDERS (at most 1), or an order count; `fallback` when it is unset. */
export function scaledOrders(fallback: number): number {
  const scale = Number(process.env.BENCH_SCALE ?? fallback);
  return Math.max(1, Math.round(scale <= 1 ? FULL_ORDERS * scale : scale));
}

/** The time an iteration spends producing its items, apart from what its consumer does with them. */
function timedIteration<T>(items: Iterator<T>): { items: Iterable<T>; ms: () => number } {
  let spent = 0;
  return {
    items: {
      [Symbol.iterator]: () => ({
        next: () => {
          const started = performance.now();
          const next = items.next();
          spent += performance.now() - started;
          return next;
        },
      }),
    },
    ms: () => spent,
  };
}

/** CPU seconds so far of this process alone and of its children (while the store is built: its Postgres). */
function cpuSeconds() {
  const counted = cpuSnapshot([
    { name: 'bench', pid: process.pid, descendants: false },
    { name: 'all', pid: process.pid, descendants: true },
  ]).counted;
  const bench = counted.get('bench') ?? 0;
  return { bench, postgres: (counted.get('all') ?? 0) - bench };
}

/**
 * One phase of the build, timed: its wall clock, the CPU time of this process and of Postgres, and the least a
 * full-size store would take of that CPU on this machine's cores with nothing else running (on a shared machine the
 * wall clock says more about the neighbours than about the store).
 */
async function phase<T>(
  name: string,
  orders: number,
  run: () => Promise<T>,
  detail: (result: T) => string = () => '',
  print: (line: string) => void = console.log,
) {
  const cpuBefore = cpuSeconds();
  const started = performance.now();
  const result = await run();
  const wallMs = performance.now() - started;
  const cpu = cpuSeconds();
  const [bench, postgres] = [cpu.bench - cpuBefore.bench, cpu.postgres - cpuBefore.postgres];
  const fullMinutes = ((bench + postgres) * (FULL_ORDERS / orders)) / cpus().length / 60;
  print(
    `build, ${name}: ${format(wallMs / 1000, 1)} s${detail(result)}; CPU ${format(bench, 1)} s in this process, ` +
      `${format(postgres, 1)} s in Postgres; at full size at least ${format(fullMinutes, 1)} min on ` +
      `${cpus().length} idle cores`,
  );
  return result;
}

/**
 * The year's history (`orders` orders, two keys each, over 200 products) appended in bulk through the event store's
 * batch path, then the log vacuumed as autovacuum would have by now on a live store. Each phase's line goes to `print`.
 */
export async function appendYearOfHistory(
  pool: pg.Pool,
  licenseKeySecret: string,
  orders: number,
  print: (line: string) => void = console.log,
): Promise<{ counts: ScaleCounts; events: number }> {
  const history = scaleHistory({
    orders,
    keys: orders * KEYS_PER_ORDER,
    products: PRODUCTS,
    seed: 2026,
    vault: createKeyVault(licenseKeySecret),
  });
  const { counts } = history;
  const generating = timedIteration<BulkAppend>(history.appends);
  const events = await phase(
    'history appended',
    orders,
    () => appendInBulk(pool, generating.items, { eventsPerTransaction: 4000, connections: 4 }),
    (events) =>
      ` for ${format(events)} events (${format(counts.orders)} orders, ${format(counts.keysAdded)} keys added, ` +
      `${format(counts.keysAssigned)} sold, ${format(counts.refunds)} refunds), deciding and sealing ` +
      `${format(generating.ms() / 1000, 1)} s of it while the writes ran`,
    print,
  );
  // What autovacuum would have done by now on a live system; the first reader would otherwise pay for it.
  await phase(
    'log vacuumed',
    orders,
    () => pool.query('VACUUM ANALYZE event_store.events'),
    undefined,
    print,
  );
  return { counts, events };
}

/**
 * The year's history appended, then every projector rebuilt from it and the read models vacuumed; what the
 * measurements need of it. Each phase's line goes to `print`.
 */
export async function buildStore(
  databaseUrl: string,
  licenseKeySecret: string,
  orders: number,
  print: (line: string) => void = console.log,
) {
  // One connection holds the rebuild's locks while each projector writes on its own.
  const database = openDatabase(databaseUrl, { max: allProjectors.length + 2 });
  const eventStore = await openEventStore({ databaseUrl });
  try {
    const { counts } = await appendYearOfHistory(database.pool, licenseKeySecret, orders, print);
    const rebuilds = await phase(
      'every projector rebuilt in one pass over the log',
      orders,
      () =>
        rebuildProjectors({
          db: database.db,
          pool: database.pool,
          store: eventStore,
          projectors: allProjectors,
          log: silentLogger,
        }),
      undefined,
      print,
    );
    if (rebuilds.length !== allProjectors.length) throw new Error('a projector was not rebuilt');
    // The rebuilt tables, all rows new, would have autovacuum visit each of them in the first minutes (6 to 15 runs
    // during the checkout comparison, none on the empty store): a year-old store has had that done long ago.
    await phase(
      'read models vacuumed',
      orders,
      () => database.pool.query('VACUUM ANALYZE'),
      undefined,
      print,
    );
    return { counts, rebuilds };
  } finally {
    await Promise.allSettled([database.close(), eventStore.close()]);
  }
}
