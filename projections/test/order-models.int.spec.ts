import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import {
  evolveInventory,
  evolveOrder,
  type InventoryState,
  initialInventoryState,
  initialOrderState,
  LICENSE_KEYS_CATEGORY,
  type OrderState,
  type OrderStatus,
  orderStream,
  type PlacedOrder,
  parseLicenseKeyEvent,
  parseOrderEvent,
  soldTo,
} from '@licensestore/domain';
import { type RecordedEvent, streamCategory } from '@licensestore/domain/events';
import { silentLogger } from '@licensestore/platform/logging';
import { waitForProjections } from '@licensestore/platform/readmodel';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { customersProjector } from '../src/customers/projector.js';
import { dashboardProjector } from '../src/dashboard/projector.js';
import { licenseKeysProjector } from '../src/license-keys/projector.js';
import { ordersProjector } from '../src/orders/projector.js';
import { allProjectors } from '../src/projectors.js';
import { metadata } from './support/catalogue.js';
import {
  readAllEvents,
  recordingLogger,
  startRunner,
  type TestReadModel,
  useTestReadModel,
} from './support/harness.js';
import { deliveryHistory, testVault } from './support/license-keys.js';
import {
  appendHistory,
  countedStats,
  ORDER_MODEL_TABLES,
  readOrderModels,
  readTable,
  storedStats,
  storeHistory,
} from './support/orders.js';

const ORDER_PROJECTORS = [ordersProjector, customersProjector, dashboardProjector, licenseKeysProjector];

const tableOid = async (env: TestReadModel, table: string) =>
  (await sql<{ oid: number }>`SELECT ${`public.${table}`}::regclass::oid AS oid`.execute(env.db)).rows[0]
    ?.oid;

/**
 * The oracle: every order and inventory stream folded with the domain's own `evolveOrder` and `evolveInventory`,
 * independently of the projectors' batching and SQL. Events that do not parse are skipped, as the projectors do.
 */
function expectedModels(events: readonly RecordedEvent[]) {
  const orders = new Map<string, OrderState>();
  // Orders PayPal declined: they count for nothing, even once a later event has moved their payment on.
  const declined = new Set<string>();
  const inventories = new Map<string, InventoryState>();
  for (const recorded of events) {
    try {
      const category = streamCategory(recorded.streamId);
      if (category === 'order') {
        const event = parseOrderEvent(recorded.type, recorded.data);
        if (!event) continue;
        const id = event.data.orderId;
        orders.set(id, evolveOrder(orders.get(id) ?? initialOrderState, event));
        if (event.type === 'OrderPaymentDenied' && orders.get(id)?.status !== 'absent') declined.add(id);
      } else if (category === LICENSE_KEYS_CATEGORY) {
        const event = parseLicenseKeyEvent(recorded.type, recorded.data);
        if (!event) continue;
        const id = event.data.productId;
        inventories.set(id, evolveInventory(inventories.get(id) ?? initialInventoryState, event));
      }
    } catch {
      // Data that does not parse: the projectors skip it too.
    }
  }
  const placed = [...orders.values()].filter((order): order is PlacedOrder => order.status !== 'absent');
  return {
    statuses: new Map(placed.map((order) => [order.orderId, order.status])),
    declined,
    fulfilled: new Map(placed.map((order) => [order.orderId, order.fulfilled])),
    lineKeys: new Map(
      placed.flatMap((order) =>
        order.lines.map((line) => [
          `${order.orderId}:${line.lineId}`,
          (order.keys[line.lineId] ?? []).map((key) => key.key),
        ]),
      ),
    ),
    keys: [...inventories].flatMap(([productId, inventory]) => [
      ...[...inventory.available.values()].map((key) => ({
        id: key.keyId,
        product_id: productId,
        key_sealed: key.key,
        fingerprint: key.fingerprint,
        status: 'available',
        order_id: null,
        line_id: null,
        returned_from: key.returnedFrom ?? null,
        // This history adds its keys without the hash of their last characters.
        tail_hash: null,
      })),
      ...[...inventory.sold].map(([keyId, key]) => {
        const { orderId, lineId } = soldTo(key);
        return {
          id: keyId,
          product_id: productId,
          key_sealed: key.key,
          fingerprint: key.fingerprint,
          status: key.status,
          order_id: orderId,
          line_id: lineId,
          returned_from: key.returnedFrom ?? null,
          tail_hash: null,
        };
      }),
    ]),
    stock: new Map(
      [...inventories].map(([productId, inventory]) => [
        productId,
        {
          available: inventory.available.size,
          assigned: [...inventory.sold.values()].filter((key) => key.status === 'assigned').length,
          waiting: inventory.waiting.reduce((sum, line) => sum + line.remaining, 0),
          revoked: [...inventory.sold.values()].filter((key) => key.status === 'revoked').length,
        },
      ]),
    ),
  };
}

const byId = (a: Record<string, unknown>, b: Record<string, unknown>) =>
  String(a.id) < String(b.id) ? -1 : 1;

describe('order read models', () => {
  const env = useTestReadModel();

  describe('replayed from the whole log', () => {
    // Two long histories (refunds and keys given back included), replayed three ways and rebuilt by the CLI.
    it('live in small batches, rebuilt by `npm run rebuild -- all`, and applied in one go: identical tables (and applying it again changes nothing)', async () => {
      const store = await appendHistory(env.store, storeHistory({ seed: 3, products: 25, orders: 600 }));
      const { events, position } = await appendHistory(
        env.store,
        deliveryHistory({ seed: 5, products: 4, steps: 500, vault: testVault() }),
      );
      expect(store.events + events).toBeGreaterThan(1200);
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
      const runner = startRunner({ ...env, maxBatch: 25, logger: log.logger });
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
      const expected = expectedModels(logged);
      expect(expected.statuses.size).toBeGreaterThan(300);
      expect(new Map(live.orders?.map((row) => [row.id as string, row.status as OrderStatus]))).toEqual(
        expected.statuses,
      );
      expect(new Map(live.orders?.map((row) => [row.id as string, row.fulfilled_at !== null]))).toEqual(
        expected.fulfilled,
      );
      expect([...expected.fulfilled.values()].filter(Boolean).length).toBeGreaterThan(50);
      expect(new Map(live.order_items?.map((row) => [row.id as string, row.license_keys]))).toEqual(
        expected.lineKeys,
      );
      expect(live.license_keys?.map(({ added_at, assigned_at, ...row }) => row).sort(byId)).toEqual(
        expected.keys.sort(byId),
      );
      expect(
        new Map(live.license_key_stock?.map(({ product_id, updated_at, ...counts }) => [product_id, counts])),
      ).toEqual(expected.stock);
      const stock = [...expected.stock.values()];
      expect(stock.some((counts) => counts.waiting > 0 && counts.assigned > 0)).toBe(true);
      expect(live.order_refunds?.length).toBeGreaterThan(0);
      expect(expected.declined.size).toBeGreaterThan(0);
      expect(await storedStats(env.db)).toEqual(await countedStats(env.db, [...expected.declined]));
      expect((await storedStats(env.db))?.completed_count).toBeGreaterThan(0);
      expect(live.customers?.length).toBe(4);
      expect(live.customers?.reduce((sum, row) => sum + (row.order_count as number), 0)).toBe(
        expected.statuses.size - expected.declined.size,
      );

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
        // Twice: a batch applied again (idempotent upserts, counters moved by differences) changes nothing. Not
        // the license keys: their waiting units move by the events, which the runner applies exactly once.
        for (let time = 0; time < (projector === licenseKeysProjector ? 1 : 2); time++) {
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
    }, 90_000);
  });
});
