/**
 * Audit history at size: the store-wide event log's pages over 1,000,000 rows, and the dashboard as of a moment over
 * a log of 200,000 events, cold (no snapshot yet) and warm.
 *
 *   npm run bench:audit-history
 *
 * A scratch embedded Postgres in a temporary directory. The log rows are written straight into `audit_log` with
 * generate_series (8 events per order, 2,000 products, 40 actors, one event a second); the event log for the
 * dashboard is appended through the event store from the projection tests' seeded histories (a few minutes).
 * Knobs: BENCH_LOG_ROWS (1000000), BENCH_EVENTS (200000).
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AuditEventsQuery } from '@licensestore/contract/audit';
import { type EventStore, type RecordedEvent, recordedOrThrow } from '@licensestore/domain/events';
import { type Database, openDatabase } from '@licensestore/platform/db';
import { openEventStore } from '@licensestore/platform/eventstore';
import { createKeyVault } from '@licensestore/platform/key-vault';
import { silentLogger } from '@licensestore/platform/logging';
import { dashboardAsOf } from '@licensestore/platform/readmodel';
import { type Kysely, sql } from 'kysely';
import { migrateReadModel } from '../projections/src/index.js';
import { deliveryHistory } from '../projections/test/support/license-keys.js';
import { appendHistory, storeHistory } from '../projections/test/support/orders.js';
import { startEmbeddedPostgres } from '../scripts/stack/embedded-postgres.js';
import { auditEventsQuery } from '../services/api/src/audit/event-log.js';
import { format, percentile } from './support/stats.js';

const LOG_ROWS = Number(process.env.BENCH_LOG_ROWS ?? 1_000_000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 200_000);

/** The median of `runs` timed calls, in ms. */
async function median(runs: number, call: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    await call();
    times.push(performance.now() - start);
  }
  return percentile(
    times.sort((a, b) => a - b),
    50,
  );
}

const position = (n: number) => `${String(n).padStart(20, '0')}/${String(n).padStart(20, '0')}`;

async function seedLog(db: Kysely<Database>) {
  await sql`
    INSERT INTO audit_log
    SELECT lpad(i::text, 20, '0') || '/' || lpad(i::text, 20, '0'), gen_random_uuid()::text,
           'order-' || (i / 8), 0,
           (ARRAY['CheckoutStarted', 'CheckoutCaptured', 'OrderCaptured', 'LicenceKeysRequested', 'LicenceKeysAssigned',
                  'OrderLicenceKeysAssigned', 'OrderFulfilled', 'DeliveryEmailSent', 'LicenceKeyAdded',
                  'OrderStatusChanged'])[1 + i % 10],
           timestamptz '2026-01-01T00:00:00Z' + i * interval '1 second',
           CASE WHEN i % 10 IN (8, 9) THEN 'admin' ELSE 'system' END, 'actor-' || (i % 40),
           'corr-' || (i / 4), 'cause-' || i, lpad(to_hex(i / 8), 32, '0')::uuid,
           jsonb_build_object('orderId', lpad(to_hex(i / 8), 32, '0'), 'at', i)
      FROM generate_series(1, ${LOG_ROWS}::int) AS i`.execute(db);
  await sql`
    INSERT INTO audit_log_products
    SELECT lpad(to_hex((i / 8) % 2000), 32, '0')::uuid, lpad(i::text, 20, '0') || '/' || lpad(i::text, 20, '0')
      FROM generate_series(1, ${LOG_ROWS}::int) AS i`.execute(db);
  await sql`ANALYZE audit_log`.execute(db);
  await sql`ANALYZE audit_log_products`.execute(db);
}

async function benchEventLog(db: Kysely<Database>) {
  const middle = position(Math.floor(LOG_ROWS / 2));
  const day = (n: number, hour = 0) => new Date(Date.UTC(2026, 0, n, hour));
  const product = '00000000-0000-0000-0000-0000000000a1';
  const pages: Array<[string, Omit<AuditEventsQuery, 'limit'>]> = [
    ['newest page, no filter', {}],
    ['mid-log page (cursor)', { before: middle }],
    ['type', { type: 'OrderFulfilled' }],
    ['type, mid-log cursor', { type: 'OrderFulfilled', before: middle }],
    ['actor', { actor: 'actor-7' }],
    ['order', { order: '00000000-0000-0000-0000-000000000abc' }],
    ['product', { product }],
    ['product, mid-log cursor', { product, before: middle }],
    ['time range (6 h, mid-log)', { from: day(4), to: day(4, 6) }],
    ['type + actor + 3 days', { type: 'OrderCaptured', actor: 'actor-2', from: day(3), to: day(6) }],
    ['a type never recorded', { type: 'ProductDeleted' }],
  ];
  console.log(
    `event log pages of 50 over ${format(LOG_ROWS)} rows (median of 21; ratio to the unfiltered newest page, the baseline):`,
  );
  let baseline = 0;
  for (const [name, filters] of pages) {
    const query = auditEventsQuery({ ...filters, limit: 50 });
    const ms = await median(21, () => query.execute(db));
    baseline ||= ms;
    console.log(`  ${name.padEnd(28)} ${format(ms, 1).padStart(7)} ms  ×${format(ms / baseline, 1)}`);
  }
}

async function appendEvents(store: EventStore) {
  let events = 0;
  for (let seed = 1; events < EVENTS; seed += 2) {
    events += (await appendHistory(store, storeHistory({ seed, products: 200, orders: 25_000 }))).events;
    const vault = createKeyVault(randomBytes(32).toString('base64url'));
    events += (
      await appendHistory(store, deliveryHistory({ seed: seed + 1, products: 50, steps: 20_000, vault }))
    ).events;
  }
}

async function benchDashboardAsOf(store: EventStore, db: Kysely<Database>) {
  const log: RecordedEvent[] = [];
  for (let page = await store.readAll(null, 10_000); page.length > 0; ) {
    log.push(...page.map(recordedOrThrow));
    page = await store.readAll(page.at(-1)?.position ?? null, 10_000);
  }
  const deps = { eventStore: store, db };
  const options = { lowStockThreshold: 5, log: silentLogger };
  const last = log.at(-1)?.createdAt as Date;
  console.log(`dashboard as of a moment over ${format(log.length)} events:`);
  const whole = await median(1, () => dashboardAsOf(deps, last, { ...options, snapshotInterval: Infinity }));
  console.log(`  whole log, no snapshots         ${format(whole)} ms`);
  const cold = await median(1, () => dashboardAsOf(deps, last, options));
  const { rows } = await sql<{ snapshots: number; size: string }>`
    SELECT count(*)::int AS snapshots, pg_size_pretty(sum(pg_column_size(state))) AS size
      FROM dashboard_as_of_snapshots`.execute(db);
  console.log(
    `  cold, writing snapshots         ${format(cold)} ms (${rows[0]?.snapshots} snapshots, ${rows[0]?.size})`,
  );
  for (const share of [0.1, 0.25, 0.5, 0.75, 1]) {
    const at = log[Math.ceil(log.length * share) - 1]?.createdAt as Date;
    const warm = await median(5, () => dashboardAsOf(deps, at, options));
    console.log(
      `  warm, as of ${String(share * 100).padStart(3)}% of the log      ${format(warm)} ms  (${format(warm / whole, 2)} of the whole fold)`,
    );
  }
}

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'audit-history-bench-'));
  // As root, Postgres runs as the postgres user, which must reach its data directory inside this one.
  await chmod(dir, 0o755);
  const postgres = await startEmbeddedPostgres(join(dir, 'postgres'));
  try {
    await postgres.createDatabase('bench');
    const database = openDatabase(postgres.url('bench'));
    const { db } = database;
    await migrateReadModel(db);
    await seedLog(db);
    await benchEventLog(db);
    await sql`TRUNCATE audit_log, audit_log_products`.execute(db);
    const store = await openEventStore({ databaseUrl: postgres.url('bench') });
    await appendEvents(store);
    await benchDashboardAsOf(store, db);
    await store.close();
    await database.close();
  } finally {
    await postgres.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
