import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { type OrderStatus, orderStream, parseOrderEvent } from '@licensestore/shared';
import { silentLogger } from '@licensestore/shared/logging';
import { waitForProjections } from '@licensestore/shared/readmodel';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customersProjector } from '../src/customers/projector.js';
import { dashboardProjector } from '../src/dashboard/projector.js';
import { ordersProjector } from '../src/orders/projector.js';
import { allProjectors } from '../src/projectors.js';
import { metadata } from './support/catalogue.js';
import { openTestReadModel, readAllEvents, recordingLogger, startRunner } from './support/harness.js';
import {
  appendHistory,
  countedStats,
  ORDER_MODEL_TABLES,
  readOrderModels,
  readTable,
  storedStats,
  storeHistory,
} from './support/orders.js';

type Env = Awaited<ReturnType<typeof openTestReadModel>>;

const ORDER_PROJECTORS = [ordersProjector, customersProjector, dashboardProjector];

/** Columns, indexes and constraints of a table, with the schema name taken out. */
async function shape(env: Env, schema: string, table: string) {
  const columns = await sql`
    SELECT column_name, data_type, numeric_precision, numeric_scale, is_nullable, column_default
      FROM information_schema.columns WHERE table_schema = ${schema} AND table_name = ${table}
     ORDER BY ordinal_position`.execute(env.db);
  const indexes = await sql`
    SELECT indexname, replace(indexdef, ${`${schema}.`}, '') AS indexdef FROM pg_indexes
     WHERE schemaname = ${schema} AND tablename = ${table} ORDER BY indexname`.execute(env.db);
  const constraints = await sql`
    SELECT conname, pg_get_constraintdef(c.oid) AS definition
      FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace
     WHERE n.nspname = ${schema} AND t.relname = ${table} ORDER BY conname`.execute(env.db);
  return { columns: columns.rows, indexes: indexes.rows, constraints: constraints.rows };
}

const tableOid = async (env: Env, table: string) =>
  (await sql<{ oid: number }>`SELECT ${`public.${table}`}::regclass::oid AS oid`.execute(env.db)).rows[0]
    ?.oid;

/** The oracle for statuses: the order events folded by hand, independently of the projector's batching and SQL. */
function expectedStatuses(events: Awaited<ReturnType<typeof readAllEvents>>): Map<string, OrderStatus> {
  const statuses = new Map<string, OrderStatus>();
  for (const recorded of events) {
    if (!recorded.streamId.startsWith('order-')) continue;
    let event: ReturnType<typeof parseOrderEvent>;
    try {
      event = parseOrderEvent(recorded.type, recorded.data);
    } catch {
      continue;
    }
    if (!event) continue;
    const id = event.data.orderId;
    if (event.type === 'OrderCaptured') statuses.set(id, event.data.status);
    else if (!statuses.has(id)) continue;
    else if (event.type === 'OrderPaymentCompleted') statuses.set(id, 'processing');
    else if (event.type === 'OrderPaymentDenied') statuses.set(id, 'cancelled');
    else if (event.type === 'OrderRefunded') statuses.set(id, 'refunded');
    else if (event.type === 'OrderStatusChanged') statuses.set(id, event.data.to);
  }
  return statuses;
}

describe('order read models', () => {
  let env: Env;

  beforeAll(async () => {
    env = await openTestReadModel();
  });
  afterAll(() => env.close());

  it('createTables makes the tables the migrations make', async () => {
    for (const projector of ORDER_PROJECTORS) {
      const schema = `ddl_${projector.name}`;
      await sql`CREATE SCHEMA ${sql.id(schema)}`.execute(env.db);
      await projector.createTables(env.db, schema);
      for (const table of projector.tables) {
        expect({ table, ...(await shape(env, schema, table)) }).toEqual({
          table,
          ...(await shape(env, 'public', table)),
        });
      }
      await sql`DROP SCHEMA ${sql.id(schema)} CASCADE`.execute(env.db);
    }
  });

  describe('replayed from the whole log', () => {
    it('live in small batches, rebuilt by `npm run rebuild -- all`, and applied in one go: identical tables (and applying it again changes nothing)', async () => {
      const { events, position } = await appendHistory(
        env.store,
        storeHistory({ seed: 3, products: 25, orders: 600 }),
      );
      expect(events).toBeGreaterThan(600);
      // Facts the read models skip: an order event that does not parse, an event of the checkout stream.
      await env.store.append(
        orderStream(randomUUID()),
        [{ type: 'OrderRefunded', data: { orderId: 'nope' }, metadata }],
        'no_stream',
      );
      const last = await env.store.append(
        `checkout-PAYPAL-${randomUUID()}`,
        [{ type: 'CheckoutStarted', data: {}, metadata }],
        'no_stream',
      );
      expect(last.position > position).toBe(true);

      const log = recordingLogger();
      const runner = startRunner({ db: env.db, store: env.store, maxBatch: 25, logger: log.logger });
      try {
        expect(
          await waitForProjections(env.pool, last.position, {
            projectors: allProjectors.map((projector) => projector.name),
            timeoutMs: 30_000,
          }),
        ).toBe(true);
      } finally {
        await runner.stop();
      }
      expect(log.lines.filter((line) => line.level === 'error')).toEqual([]);
      expect(runner.batches.filter((batch) => batch.projector === 'dashboard').length).toBeGreaterThan(10);

      const live = await readOrderModels(env.db);
      const liveProducts = await readTable(env.db, 'products', 'id');
      const logged = await readAllEvents(env.store);

      // Against the oracle and against each other.
      const statuses = expectedStatuses(logged);
      expect(statuses.size).toBeGreaterThan(200);
      expect(new Map(live.orders?.map((row) => [row.id as string, row.status as OrderStatus]))).toEqual(
        statuses,
      );
      expect(new Set(live.order_items?.map((row) => row.order_id))).toEqual(new Set(statuses.keys()));
      expect(await storedStats(env.db)).toEqual(await countedStats(env.db));
      expect((await storedStats(env.db))?.completed_count).toBeGreaterThan(0);
      expect(live.customers?.length).toBe(4);
      expect(live.customers?.reduce((sum, row) => sum + (row.order_count as number), 0)).toBe(statuses.size);

      // The rebuild command, as an operator runs it.
      const oidBefore = await tableOid(env, 'orders');
      const { stdout } = await promisify(execFile)('npm', ['run', '--silent', 'rebuild', '--', 'all'], {
        cwd: new URL('../..', import.meta.url).pathname,
        env: { ...process.env, DATABASE_URL: env.url, LOG_LEVEL: 'warn' },
      });
      for (const projector of allProjectors) {
        expect(stdout).toMatch(new RegExp(`${projector.name}: \\d+ events in \\d+ ms`));
      }
      expect(await tableOid(env, 'orders')).not.toBe(oidBefore);
      expect(await readOrderModels(env.db)).toEqual(live);
      expect(await readTable(env.db, 'products', 'id')).toEqual(liveProducts);

      // Every projector applying the whole log in a single batch, elsewhere.
      for (const projector of ORDER_PROJECTORS) {
        const schema = `oneshot_${projector.name}`;
        await sql`CREATE SCHEMA ${sql.id(schema)}`.execute(env.db);
        await projector.createTables(env.db, schema);
        // Twice: a batch applied again (idempotent upserts, counters moved by differences) changes nothing.
        for (let time = 0; time < 2; time++) {
          await env.db
            .transaction()
            .execute((trx) => projector.apply(trx, logged, { schema, log: silentLogger }));
        }
        for (const table of projector.tables) {
          const key = ORDER_MODEL_TABLES[table as keyof typeof ORDER_MODEL_TABLES];
          expect({ table, rows: await readTable(env.db, table, key, schema) }).toEqual({
            table,
            rows: live[table],
          });
        }
      }
    });
  });
});
