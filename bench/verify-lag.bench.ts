/**
 * Projection lag while `audit:verify` runs: a log built through the event store's batch append path, the
 * `projections` role following it, a steady stream of the store's business appended one command at a time as the
 * api appends, each followed by a read-your-writes wait; first without a verification (the baseline), then while
 * `npm run audit:verify` runs as a process of its own, as an operator runs it.
 *
 *   npm run bench:verify-lag
 *
 * Without DATABASE_URL it starts an embedded Postgres in a temporary directory; with it, it works in a new
 * database on that server (dropped afterwards). Knobs: BENCH_VERIFY_EVENTS (1,000,000; 100000 for a quick run),
 * BENCH_PRODUCTS (2,000), BENCH_APPENDS_PER_SECOND (25), BENCH_BASELINE_SECONDS (10).
 */
import { spawn } from 'node:child_process';
import { cpus } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { EventStore, Position } from '@licensestore/domain/events';
import { openDatabase } from '@licensestore/platform/db';
import { openEventStore } from '@licensestore/platform/eventstore';
import { waitForProjections } from '@licensestore/platform/readmodel';
import type pg from 'pg';
import { withBenchDatabase } from '../projections/bench/support/database.js';
import { storeLog } from '../projections/bench/support/store-log.js';
import { allProjectors } from '../projections/src/projectors.js';
import { appendInBulk, type BulkAppend, metadata } from '../projections/test/support/catalogue.js';
import { testVault } from '../projections/test/support/license-keys.js';
import { spawnRole } from '../scripts/lib/roles.js';
import { logHead } from './support/log-head.js';
import { format, percentile } from './support/stats.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const PROJECTORS = allProjectors.map((projector) => projector.name);
/** The api's bound on a command's read-your-writes wait: past it, the command answers before its change shows. */
const READ_YOUR_WRITES_MS = 3000;
const TARGET_LAG_P99_MS = 1000;
/** The verification's connections name themselves so (libpq's PGAPPNAME, which pg honours too). */
const VERIFY_APPLICATION = 'audit-verify';

export interface LagFigures {
  /** Appends made, each followed by a read-your-writes wait. */
  appends: number;
  /** From an append's return until every projector had applied it, in ms. */
  p50: number;
  p99: number;
  max: number;
  /** Waits that gave up after the api's bound. */
  timedOut: number;
  /**
   * The longest a committed event was kept from the log's readers by an older transaction still running (they read
   * only below the oldest running transaction id), sampled every 50 ms, in ms.
   */
  heldBackMax: number;
  /**
   * The oldest open transaction of the verification that holds a transaction id, sampled likewise, in ms from the
   * transaction's start (an id is taken at its first write, so this bounds how long it held readers back).
   */
  verifyWriterMax: number;
}

export interface VerifyLag {
  cores: number;
  appendsPerSecond: number;
  baseline: LagFigures & { ms: number };
  duringVerify: LagFigures & { ms: number; passed: boolean; output: string };
}

export interface VerifyLagOptions {
  databaseUrl: string;
  /** For the read-your-writes waits (one LISTEN connection). */
  pool: pg.Pool;
  store: EventStore;
  /** The business that goes on meanwhile, in log order; each item is one command's append. */
  business: Iterator<BulkAppend>;
  appendsPerSecond?: number;
  baselineMs?: number;
}

/**
 * Appends `business` at a steady rate, one append after the other (a stream's appends stay in order), each followed
 * by a read-your-writes wait that runs beside the next appends; `stop` ends the stream and returns the figures.
 */
function steadyStream(
  options: Required<Pick<VerifyLagOptions, 'pool' | 'store' | 'business' | 'appendsPerSecond'>>,
) {
  const lags: number[] = [];
  const waits: Promise<void>[] = [];
  let timedOut = 0;
  let stopped = false;
  let heldBackMax = 0;
  let verifyWriterMax = 0;
  const sampling = (async () => {
    while (!stopped) {
      const { rows } = await options.pool.query<{ held: number; verify: number }>(
        `SELECT (SELECT coalesce(max(extract(epoch FROM clock_timestamp() - created_at)), 0)
                   FROM event_store.events
                  WHERE transaction_id >= pg_snapshot_xmin(pg_current_snapshot()))::float8 * 1000 AS held,
                (SELECT coalesce(max(extract(epoch FROM clock_timestamp() - xact_start)), 0)
                   FROM pg_stat_activity
                  WHERE backend_xid IS NOT NULL AND application_name = $1)::float8 * 1000 AS verify`,
        [VERIFY_APPLICATION],
      );
      heldBackMax = Math.max(heldBackMax, rows[0]?.held ?? 0);
      verifyWriterMax = Math.max(verifyWriterMax, rows[0]?.verify ?? 0);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const measure = async (position: Position, appendedAt: number) => {
    const visible = await waitForProjections(options.pool, position, {
      projectors: PROJECTORS,
      timeoutMs: READ_YOUR_WRITES_MS,
    });
    if (!visible) {
      timedOut++;
      await waitForProjections(options.pool, position, { projectors: PROJECTORS, timeoutMs: 600_000 });
    }
    lags.push(performance.now() - appendedAt);
  };
  const running = (async () => {
    const started = performance.now();
    const interval = 1000 / options.appendsPerSecond;
    for (let tick = 0; !stopped; tick++) {
      const due = started + tick * interval - performance.now();
      if (due > 0) await new Promise((resolve) => setTimeout(resolve, due));
      const next = options.business.next();
      if (next.done) throw new Error('the business ran out before the measurement ended');
      const { stream, expected, events } = next.value;
      const appended = await options.store.append(
        stream,
        events.map((event) => ({ ...event, metadata })),
        expected,
      );
      waits.push(measure(appended.position, performance.now()));
    }
  })();
  return {
    stop: async (): Promise<LagFigures> => {
      stopped = true;
      await running;
      await sampling;
      await Promise.all(waits);
      const sorted = lags.sort((a, b) => a - b);
      return {
        appends: sorted.length,
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
        max: sorted.at(-1) ?? Number.NaN,
        timedOut,
        heldBackMax,
        verifyWriterMax,
      };
    },
  };
}

/** `npm run audit:verify` as a process of its own; resolves with whether it passed and what it printed. */
function runVerify(databaseUrl: string): Promise<{ passed: boolean; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'projections/src/audit/verify-cli.ts'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', PGAPPNAME: VERIFY_APPLICATION },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolve({ passed: code === 0, output }));
  });
}

/**
 * Projection lag and read-your-writes timeouts under a steady stream of appends, without and then during
 * `audit:verify`. The `projections` role must be following `databaseUrl`, caught up.
 */
export async function measureVerifyLag(options: VerifyLagOptions): Promise<VerifyLag> {
  const stream = {
    pool: options.pool,
    store: options.store,
    business: options.business,
    appendsPerSecond: options.appendsPerSecond ?? 25,
  };
  const baselineMs = options.baselineMs ?? 10_000;
  const baseline = steadyStream(stream);
  await new Promise((resolve) => setTimeout(resolve, baselineMs));
  const baselineFigures = { ...(await baseline.stop()), ms: baselineMs };

  const during = steadyStream(stream);
  const started = performance.now();
  const verified = await runVerify(options.databaseUrl).then(
    (outcome) => outcome,
    (error: unknown) => ({ error }),
  );
  const ms = performance.now() - started;
  // Stopped whatever happened, so a run that failed to start does not leave the stream appending.
  const figures = await during.stop();
  if ('error' in verified) throw verified.error;
  const duringFigures = { ...figures, ms, ...verified };
  return {
    cores: cpus().length,
    appendsPerSecond: stream.appendsPerSecond,
    baseline: baselineFigures,
    duringVerify: duringFigures,
  };
}

/** The first `events` events' worth of appends; the iterator stays open for what follows. */
function* take(appends: Iterator<BulkAppend>, events: number): Generator<BulkAppend> {
  let taken = 0;
  while (taken < events) {
    const next = appends.next();
    if (next.done) return;
    taken += next.value.events.length;
    yield next.value;
  }
}

const describe = (figures: LagFigures) =>
  `lag p50 ${format(figures.p50)} ms, p99 ${format(figures.p99)} ms, max ${format(figures.max)} ms over ` +
  `${format(figures.appends)} appends; ${format(figures.timedOut)} read-your-writes waits timed out ` +
  `(> ${format(READ_YOUR_WRITES_MS / 1000)} s); events held back from readers up to ${format(figures.heldBackMax)} ms, the verification's longest ` +
  `transaction with an id open (from its start) ${format(figures.verifyWriterMax)} ms`;

async function main() {
  const events = Number(process.env.BENCH_VERIFY_EVENTS ?? 1_000_000);
  const products = Number(process.env.BENCH_PRODUCTS ?? 2_000);
  const appendsPerSecond = Number(process.env.BENCH_APPENDS_PER_SECOND ?? 25);
  const baselineMs = Number(process.env.BENCH_BASELINE_SECONDS ?? 10) * 1000;
  console.log(
    `verify lag bench: ${format(events)} events over ${format(products)} products, ${cpus().length} CPUs, ` +
      `${format(appendsPerSecond)} appends/s, Node ${process.version}`,
  );
  await withBenchDatabase(async (databaseUrl) => {
    const { pool, close } = openDatabase(databaseUrl, { max: 4 });
    const store = await openEventStore({ databaseUrl });
    // The business after the seeded log: the same store's history, going on.
    const history = storeLog({ events: events + 1_000_000, products, seed: 2026, vault: testVault() });
    const role = spawnRole(
      ROOT,
      'projections',
      { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'error' },
      (line) => console.error(line),
    );
    try {
      const seeding = performance.now();
      const appended = await appendInBulk(pool, take(history, events), {
        eventsPerTransaction: 4000,
        connections: 4,
      });
      console.log(
        `seeded ${format(appended)} events in ${format((performance.now() - seeding) / 1000, 1)} s`,
      );
      // What autovacuum would have done by now on a live system; the first reader would otherwise pay for it.
      await pool.query('VACUUM ANALYZE event_store.events');
      const projecting = performance.now();
      const head = await logHead(pool);
      if (
        !head ||
        !(await waitForProjections(pool, head, { projectors: PROJECTORS, timeoutMs: 3_600_000 }))
      ) {
        throw new Error('the projections role did not catch up with the seeded log');
      }
      console.log(`projections caught up in ${format((performance.now() - projecting) / 1000, 1)} s`);

      const lag = await measureVerifyLag({
        databaseUrl,
        pool,
        store,
        business: history,
        appendsPerSecond,
        baselineMs,
      });
      for (const line of lag.duringVerify.output.trimEnd().split('\n'))
        console.log(`  audit:verify | ${line}`);
      console.log(
        `\nbaseline, no verification (${format(lag.baseline.ms / 1000, 1)} s): ${describe(lag.baseline)}`,
      );
      console.log(
        `during audit:verify (${format(lag.duringVerify.ms / 1000, 1)} s, ${lag.duringVerify.passed ? 'passed' : 'FAILED'}): ` +
          describe(lag.duringVerify),
      );
      console.log(`lag p99 during verify / baseline: ${format(lag.duringVerify.p99 / lag.baseline.p99, 2)}`);
      const met =
        lag.duringVerify.passed &&
        lag.duringVerify.p99 < TARGET_LAG_P99_MS &&
        lag.duringVerify.timedOut === 0;
      console.log(
        `${met ? 'PASS' : 'FAIL'} during verify: lag p99 < ${format(TARGET_LAG_P99_MS)} ms and no read-your-writes ` +
          `wait timed out (${lag.cores} CPUs)`,
      );
      if (!met) process.exitCode = 1;
    } finally {
      await role.stop(10_000);
      await store.close();
      await close();
    }
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
