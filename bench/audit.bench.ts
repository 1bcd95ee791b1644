/**
 * Verification throughput: `audit:verify` over a log of a whole store's history, against rebuilding every
 * projection from the same log, measured in the same run.
 *
 *   npm run bench:audit
 *
 * Without DATABASE_URL it starts an embedded Postgres in a temporary directory; with it, it works in a new
 * database on that server (dropped afterwards). Knobs: BENCH_EVENTS (1,000,000), BENCH_PRODUCTS (2,000).
 */
import { cpus } from 'node:os';
import { silentLogger } from '@licensestore/platform/logging';
import { withBenchReadModel } from '../projections/bench/support/database.js';
import { storeLog } from '../projections/bench/support/store-log.js';
import { verifyReadModels } from '../projections/src/audit/verify.js';
import { allProjectors } from '../projections/src/projectors.js';
import { rebuildProjector } from '../projections/src/rebuild.js';
import { appendInBulk } from '../projections/test/support/catalogue.js';
import { testVault } from '../projections/test/support/license-keys.js';
import { format } from './support/stats.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 2_000);
const TARGET_RATE = 15_000;

const perSecond = (count: number, ms: number) => count / (ms / 1000);

async function main() {
  console.log(
    `audit verify bench: ${format(EVENTS)} events over ${format(PRODUCTS)} products, ${cpus().length} CPUs, ` +
      `Node ${process.version}, projectors ${allProjectors.map((projector) => projector.name).join(', ')}`,
  );
  // A connection per projector (the replay writes them side by side), one for the verification's lock, one spare.
  const connections = allProjectors.length + 2;
  await withBenchReadModel({ connections }, async ({ db, pool, store, serverVersion: version }) => {
    const seeding = performance.now();
    const appended = await appendInBulk(
      pool,
      storeLog({ events: EVENTS, products: PRODUCTS, seed: 2026, vault: testVault() }),
      { eventsPerTransaction: 4000, connections: 4 },
    );
    const { rows: mix } = await pool.query<{ category: string; events: number }>(
      `SELECT split_part(stream_id, '-', 1) AS category, count(*)::int AS events
         FROM event_store.events GROUP BY 1 ORDER BY 2 DESC`,
    );
    console.log(
      `seeded ${format(appended)} events in ${format((performance.now() - seeding) / 1000, 1)} s: ` +
        mix.map((row) => `${row.category} ${format(row.events)}`).join(', '),
    );
    // What autovacuum would have done by now on a live system; the first reader would otherwise pay for it.
    await pool.query('VACUUM ANALYZE event_store.events');

    // Baseline: every projection rebuilt from the log, one after the other, as `npm run rebuild -- all` does.
    let rebuildMs = 0;
    for (const projector of allProjectors) {
      const rebuilt = await rebuildProjector({ db, pool, store, projector, log: silentLogger });
      if (!rebuilt) throw new Error(`rebuild of ${projector.name} skipped`);
      rebuildMs += rebuilt.durationMs;
      console.log(
        `  rebuild ${projector.name.padEnd(13)} ${format(rebuilt.events)} events in ${format(rebuilt.durationMs / 1000, 1)} s ` +
          `(${format(perSecond(rebuilt.events, rebuilt.durationMs))} events/s)`,
      );
    }
    const rebuildRate = perSecond(appended, rebuildMs);

    let printed = 0;
    const report = await verifyReadModels({
      db,
      pool,
      store,
      log: silentLogger,
      onProgress: (progress) => {
        if (progress.phase !== 'replaying' || progress.done - printed < 250_000) return;
        printed = progress.done;
        console.log(`  verify replayed ${format(progress.done)} of ${format(progress.total ?? Number.NaN)}`);
      },
    });
    const verifyRate = perSecond(report.events, report.durationMs);
    const compareMs = report.durationMs - report.replayMs;
    const rows = report.tables.reduce((sum, table) => sum + table.liveRows, 0);

    console.log(`\nPostgreSQL ${version}`);
    console.log(
      `rebuild, all ${allProjectors.length} projections: ${format(appended)} events in ${format(rebuildMs / 1000, 1)} s = ` +
        `${format(rebuildRate)} events/s`,
    );
    console.log(
      `verify: ${format(report.events)} events in ${format(report.durationMs / 1000, 1)} s = ${format(verifyRate)} events/s ` +
        `(replay ${format(report.replayMs / 1000, 1)} s, comparing ${format(rows)} rows in ${report.tables.length} tables ` +
        `${format(compareMs / 1000, 1)} s)`,
    );
    console.log(`verify / rebuild of all projections: ${format(verifyRate / rebuildRate, 2)}`);
    const exact = report.passed && report.events === appended;
    console.log(
      `checks: the rebuilt models verify (${report.passed}), every event replayed (${report.events === appended})`,
    );
    const met = exact && verifyRate >= TARGET_RATE;
    console.log(
      `${met ? 'PASS' : 'FAIL'} verify >= ${format(TARGET_RATE)} events/s: ${format(verifyRate)} events/s`,
    );
    if (!met) process.exitCode = 1;
  });
}

await main();
