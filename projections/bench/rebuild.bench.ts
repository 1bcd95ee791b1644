/**
 * Rebuild throughput of the products read model, against a bare batched insert of the same rows.
 *
 *   npm run bench:projections
 *
 * Without DATABASE_URL it starts an embedded Postgres in a temporary directory; with it, it works in a new
 * database on that server (dropped afterwards). Knobs: BENCH_EVENTS (1,000,000), BENCH_PRODUCTS (20,000),
 * BENCH_BATCH (comma-separated rebuild batch sizes, 5000).
 */
import { cpus } from 'node:os';
import { type Position, type RecordedEvent, recordedOrThrow } from '@licensestore/domain/events';
import { silentLogger } from '@licensestore/platform/logging';
import type pg from 'pg';
import { type ProductRow, productsProjector } from '../src/products/projector.js';
import { rebuildProjector } from '../src/rebuild.js';
import { appendInBulk, catalogueHistory, ProductOracle, readProducts } from '../test/support/catalogue.js';
import { withBenchReadModel } from './support/database.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 20_000);
const BATCHES = (process.env.BENCH_BATCH ?? '5000').split(',').map(Number);
const TARGET_RATE = 30_000;
const TARGET_RATIO = 0.6;

const BASELINE_COLUMNS = [
  'event_id',
  'id',
  'name',
  'description',
  'image_url',
  'category',
  'platform',
  'regular_price',
  'sale_price',
  'featured',
  'in_stock',
  'created_at',
  'updated_at',
] as const;
type BaselineRow = ProductRow & { event_id: string };

const rate = (count: number, ms: number) => Math.round(count / (ms / 1000));
const format = (n: number) => n.toLocaleString('en-US');

/**
 * The baseline: the state of the product after every event, one row per event, written with nothing else
 * around it (reading the log and folding the states are not timed), in two textbook shapes.
 */
async function baseline(
  pool: pg.Pool,
  events: AsyncIterable<RecordedEvent[]>,
  shape: 'values' | 'json',
  oracle = new ProductOracle(),
) {
  await pool.query('DROP TABLE IF EXISTS baseline_rows');
  await pool.query('CREATE TABLE baseline_rows (event_id uuid PRIMARY KEY, LIKE products)');
  const updates = BASELINE_COLUMNS.filter((column) => column !== 'event_id')
    .map((column) => `${column} = excluded.${column}`)
    .join(', ');
  let rows = 0;
  let ms = 0;
  for await (const batch of events) {
    const batchRows: BaselineRow[] = [];
    for (const event of batch) {
      const row = oracle.apply(event);
      if (row) batchRows.push({ event_id: event.id, ...row });
    }
    const started = performance.now();
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      if (shape === 'json') {
        await client.query(
          `INSERT INTO baseline_rows SELECT * FROM json_populate_recordset(NULL::baseline_rows, $1::json)
           ON CONFLICT (event_id) DO UPDATE SET ${updates}`,
          [JSON.stringify(batchRows)],
        );
      } else {
        const values: unknown[] = [];
        const tuples = batchRows.map((row) => {
          const base = values.length;
          for (const column of BASELINE_COLUMNS) values.push(row[column]);
          return `(${BASELINE_COLUMNS.map((_, i) => `$${base + i + 1}`).join(', ')})`;
        });
        await client.query(
          `INSERT INTO baseline_rows (${BASELINE_COLUMNS.join(', ')}) VALUES ${tuples.join(', ')}
           ON CONFLICT (event_id) DO UPDATE SET ${updates}`,
          values,
        );
      }
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    ms += performance.now() - started;
    rows += batchRows.length;
  }
  await pool.query('DROP TABLE baseline_rows');
  return { rows, ms };
}

async function main() {
  console.log(
    `licensestore projections benchmark: ${format(EVENTS)} events, ${format(PRODUCTS)} products, ` +
      `${cpus().length} CPUs, rebuild batch ${BATCHES.join('/')}`,
  );
  await withBenchReadModel({ connections: 8 }, async ({ db, pool, store, serverVersion: version }) => {
    const appendStarted = performance.now();
    const appended = await appendInBulk(
      pool,
      catalogueHistory({ products: PRODUCTS, events: EVENTS, seed: 2026 }),
      {
        eventsPerTransaction: 4000,
        connections: 4,
      },
    );
    const appendMs = performance.now() - appendStarted;
    console.log(`appended ${format(appended)} events: ${format(rate(appended, appendMs))} events/s`);
    // What autovacuum would have done by now on a live system; the first reader would otherwise pay for it.
    await pool.query('VACUUM ANALYZE event_store.events');

    const readAll = async function* (batchSize: number) {
      let after: Position | null = null;
      for (;;) {
        const batch = await store.readAll(after, batchSize);
        if (batch.length === 0) return;
        after = (batch[batch.length - 1] as RecordedEvent).position;
        yield batch.map(recordedOrThrow);
      }
    };

    const results: { label: string; count: string; seconds: string; perSecond: number; ratio?: string }[] = [
      {
        label: 'append (4,000 events/tx, 4 connections)',
        count: format(appended),
        seconds: (appendMs / 1000).toFixed(1),
        perSecond: rate(appended, appendMs),
      },
    ];
    let verdict = true;
    for (const batchSize of BATCHES) {
      const rebuilt = await rebuildProjector({
        db,
        pool,
        store,
        projector: productsProjector,
        log: silentLogger,
        batchSize,
      });
      if (!rebuilt) throw new Error('rebuild skipped');
      if (rebuilt.events !== appended) {
        console.log(
          `rebuild read ${format(rebuilt.events)} of ${format(appended)} events: the log is not read whole`,
        );
        verdict = false;
      }
      const rebuildRate = rate(rebuilt.events, rebuilt.durationMs);
      console.log(
        `rebuild, batch ${batchSize}: ${format(rebuilt.events)} events, ${format(rebuildRate)} events/s`,
      );
      const values = await baseline(pool, readAll(batchSize), 'values');
      const json = await baseline(pool, readAll(batchSize), 'json');
      const best = Math.max(rate(values.rows, values.ms), rate(json.rows, json.ms));
      const ratio = rebuildRate / best;
      verdict &&= rebuildRate >= TARGET_RATE && ratio >= TARGET_RATIO;
      results.push(
        {
          label: `rebuild products (batch ${batchSize})`,
          count: format(rebuilt.events),
          seconds: (rebuilt.durationMs / 1000).toFixed(1),
          perSecond: rebuildRate,
          ratio: ratio.toFixed(2),
        },
        {
          label: `baseline: multi-row VALUES upsert (batch ${batchSize})`,
          count: format(values.rows),
          seconds: (values.ms / 1000).toFixed(1),
          perSecond: rate(values.rows, values.ms),
        },
        {
          label: `baseline: json_populate_recordset upsert (batch ${batchSize})`,
          count: format(json.rows),
          seconds: (json.ms / 1000).toFixed(1),
          perSecond: rate(json.rows, json.ms),
        },
      );
    }

    // The benchmark's own check: the rebuilt model is the fold of the log.
    const oracle = new ProductOracle();
    for await (const batch of readAll(10_000)) for (const event of batch) oracle.apply(event);
    const rows = await readProducts(db);
    const exact = JSON.stringify(rows) === JSON.stringify(oracle.rows());
    console.log(
      `\nPostgreSQL ${version}; rebuilt model: ${format(rows.length)} products, equal to the fold of the log: ${exact}`,
    );
    console.log('');
    const width = Math.max(...results.map((r) => r.label.length));
    console.log(
      `${'phase'.padEnd(width)} | ${'events/rows'.padStart(11)} | ${'seconds'.padStart(7)} | ${'per second'.padStart(10)} | rebuild/baseline`,
    );
    console.log(
      `${'-'.repeat(width)}-|-${'-'.repeat(11)}-|-${'-'.repeat(7)}-|-${'-'.repeat(10)}-|-----------------`,
    );
    for (const r of results) {
      console.log(
        `${r.label.padEnd(width)} | ${r.count.padStart(11)} | ${r.seconds.padStart(7)} | ${format(r.perSecond).padStart(10)} | ${r.ratio ?? ''}`,
      );
    }
    console.log(
      `\ntarget: rebuild >= ${format(TARGET_RATE)} events/s and >= ${TARGET_RATIO} of the faster baseline: ${verdict && exact ? 'met' : 'NOT met'}`,
    );
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
