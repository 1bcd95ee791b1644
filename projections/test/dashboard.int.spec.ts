import { randomUUID } from 'node:crypto';
import type { OrderLine } from '@licensestore/domain';
import { waitForProjections } from '@licensestore/platform/readmodel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestReadModel, recordingLogger, startRunner } from './support/harness.js';
import { assignmentsIn, inventoryOf, newKeys, ordersIn, testVault } from './support/license-keys.js';
import {
  appendOrder,
  appendProduct,
  countedStats,
  orderCaptured,
  orderLine,
  paymentCompleted,
  paymentDenied,
  productCreated,
  productDeleted,
  productFields,
  productUpdated,
  refunded,
  statusChanged,
  storedStats,
} from './support/orders.js';

describe('dashboard projector', () => {
  let env: Awaited<ReturnType<typeof openTestReadModel>>;
  const log = recordingLogger();
  let runner: ReturnType<typeof startRunner>;
  let last = '';
  /** Appends and remembers the furthest position appended (a read of the log's head may not see it yet). */
  const track = async (appending: { position: string | null } | Promise<{ position: string | null }>) => {
    const { position } = await appending;
    if (position !== null && position > last) last = position;
  };
  const order = (...args: Parameters<typeof appendOrder>) => track(appendOrder(...args));
  const product = (...args: Parameters<typeof appendProduct>) => track(appendProduct(...args));
  /** Waits until these projectors have applied everything appended, so the dashboard can be compared with them. */
  const settled = async () => {
    expect(
      await waitForProjections(env.pool, last, {
        projectors: ['products', 'orders', 'license-keys', 'dashboard'],
        timeoutMs: 10_000,
      }),
    ).toBe(true);
  };
  const at = (minute: number) => new Date(Date.UTC(2026, 4, 1, 9, minute)).toISOString();

  beforeAll(async () => {
    env = await openTestReadModel();
    runner = startRunner({ ...env, logger: log.logger });
  });
  afterAll(async () => {
    await runner.stop();
    await env.close();
  });

  it('has no row before the first product or order', async () => {
    expect(await storedStats(env.db)).toBeUndefined();
  });

  describe('when products are created, featured, unfeatured and deleted', () => {
    it('counts the live products and the featured ones', async () => {
      const [a, b, c, d] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
      await product(env.store, a, productCreated(a, productFields({ featured: true }), at(0)));
      await product(env.store, b, productCreated(b, productFields(), at(1)));
      await product(
        env.store,
        c,
        productCreated(c, productFields({ featured: true }), at(2)),
        productUpdated(c, { regularPrice: '99.00' }, at(3)),
      );
      await product(env.store, d, productCreated(d, productFields(), at(4)));
      await settled();
      expect(await storedStats(env.db)).toMatchObject({ product_count: 4, featured_count: 2 });

      await product(env.store, b, productUpdated(b, { featured: true }, at(5)));
      await product(env.store, a, productUpdated(a, { featured: false }, at(6)));
      await product(env.store, c, productDeleted(c, at(7)));
      // Edits to a deleted product change nothing, as on the storefront.
      await product(env.store, c, productUpdated(c, { featured: true }, at(8)));
      await product(env.store, d, productDeleted(d, at(9)));
      await settled();
      expect(await storedStats(env.db)).toMatchObject({ product_count: 2, featured_count: 1 });
      expect(await storedStats(env.db)).toEqual(await countedStats(env.db));
    });
  });

  describe('when orders of every status come in', () => {
    it('counts orders not declined, completed ones, distinct customers with such an order and revenue kept', async () => {
      const paid = orderCaptured({
        name: 'Ada',
        email: 'ada@example.com',
        lines: [orderLine('Windows 11 Pro', 2, '100.00')],
        capturedAt: at(10),
      });
      const pendingThenPaid = orderCaptured({
        name: 'Ada',
        email: 'ADA@example.com',
        lines: [orderLine('Office', 1, '50.50')],
        status: 'pending',
        capturedAt: at(11),
      });
      const pendingThenDenied = orderCaptured({
        name: 'Grace',
        email: 'grace@example.org',
        lines: [orderLine('Norton', 1, '40.00')],
        status: 'pending',
        capturedAt: at(12),
      });
      const refundedLater = orderCaptured({
        name: 'Linus',
        email: 'linus@example.net',
        lines: [orderLine('WinRAR', 3, '10.00')],
        capturedAt: at(13),
      });
      for (const event of [paid, pendingThenPaid, pendingThenDenied, refundedLater]) {
        await order(env.store, event.data.orderId, event);
      }
      await settled();
      expect(await storedStats(env.db)).toMatchObject({
        order_count: 4,
        completed_count: 0,
        customer_count: 3,
        revenue: '320.50',
      });

      const id = (event: typeof paid) => event.data.orderId;
      await order(env.store, id(pendingThenPaid), paymentCompleted(id(pendingThenPaid), at(14)));
      await order(env.store, id(pendingThenDenied), paymentDenied(id(pendingThenDenied), at(15)));
      await order(env.store, id(refundedLater), refunded(id(refundedLater), at(16)));
      await order(env.store, id(paid), statusChanged(id(paid), 'processing', 'completed', at(17)));
      await order(
        env.store,
        id(pendingThenPaid),
        statusChanged(id(pendingThenPaid), 'processing', 'completed', at(18)),
        statusChanged(id(pendingThenPaid), 'completed', 'cancelled', at(19)),
      );
      await settled();
      // Grace's only order was declined: no money came, so it is no order and she is no customer.
      expect(await storedStats(env.db)).toEqual({
        product_count: 2,
        featured_count: 1,
        order_count: 3,
        completed_count: 1,
        customer_count: 2,
        revenue: '200.00',
        available_keys: 0,
        assigned_keys: 0,
        orders_awaiting_keys: 0,
      });
      expect(await storedStats(env.db)).toEqual(await countedStats(env.db));
      const { updated_at } = await env.db
        .selectFrom('dashboard_stats')
        .select('updated_at')
        .executeTakeFirstOrThrow();
      expect(updated_at).toEqual(new Date(at(19)));
    });
  });

  describe('with products and orders interleaved in one batch', () => {
    it('still equals the counts over the tables', async () => {
      await runner.stop();
      const productId = randomUUID();
      await product(
        env.store,
        productId,
        productCreated(productId, productFields({ featured: true }), at(20)),
      );
      const captured = orderCaptured({
        name: 'Margaret',
        email: 'margaret@example.com',
        lines: [orderLine('Windows 11 Pro', 1, '199.00', productId)],
        capturedAt: at(21),
      });
      const orderId = captured.data.orderId;
      await order(env.store, orderId, captured, refunded(orderId, at(22)));
      await product(env.store, productId, productDeleted(productId, at(23)));
      runner = startRunner({ ...env, logger: log.logger });
      await settled();
      expect(await storedStats(env.db)).toEqual(await countedStats(env.db));
      expect(await storedStats(env.db)).toMatchObject({
        order_count: 4,
        customer_count: 3,
        revenue: '200.00',
      });
      expect(log.lines.filter((line) => line.level === 'error' || line.level === 'warn')).toEqual([]);
    });
  });

  describe('when PayPal declines the payment of a pending order', () => {
    it('counts the order and its buyer until the denial, then neither, even if an admin sets it going again', async () => {
      const before = await storedStats(env.db);
      const moved = async () => {
        await settled();
        const now = await storedStats(env.db);
        return {
          orders: (now?.order_count ?? 0) - (before?.order_count ?? 0),
          customers: (now?.customer_count ?? 0) - (before?.customer_count ?? 0),
          revenue: (Number(now?.revenue ?? 0) - Number(before?.revenue ?? 0)).toFixed(2),
        };
      };
      const onlyDeclined = orderCaptured({
        name: 'Barbara',
        email: 'barbara@example.com',
        lines: [orderLine('Norton', 1, '40.00')],
        status: 'pending',
        capturedAt: at(24),
      });
      const paid = orderCaptured({
        name: 'Edsger',
        email: 'edsger@example.com',
        lines: [orderLine('Office', 1, '60.00')],
        capturedAt: at(25),
      });
      const declinedToo = orderCaptured({
        name: 'Edsger',
        email: 'EDSGER@example.com',
        lines: [orderLine('Office', 1, '60.00')],
        status: 'pending',
        capturedAt: at(26),
      });
      for (const event of [onlyDeclined, paid, declinedToo])
        await order(env.store, event.data.orderId, event);
      expect(await moved()).toEqual({ orders: 3, customers: 2, revenue: '160.00' });

      const id = (event: typeof paid) => event.data.orderId;
      await order(env.store, id(onlyDeclined), paymentDenied(id(onlyDeclined), at(27)));
      await order(env.store, id(declinedToo), paymentDenied(id(declinedToo), at(28)));
      expect(await moved()).toEqual({ orders: 1, customers: 1, revenue: '60.00' });

      await order(
        env.store,
        id(onlyDeclined),
        statusChanged(id(onlyDeclined), 'cancelled', 'processing', at(29)),
      );
      expect(await moved()).toEqual({ orders: 1, customers: 1, revenue: '60.00' });
      expect(await storedStats(env.db)).toEqual(await countedStats(env.db));
    });
  });

  describe('when keys are added, paid orders wait for them and get them', () => {
    it('counts keys available and assigned, and the paid orders still owed keys until they are fulfilled', async () => {
      const productId = randomUUID();
      const inventory = inventoryOf(env.store, productId);
      const orders = ordersIn(env.store);
      const vault = testVault();
      /** What the reactor does: ask for each paid line's keys, hand what the inventory gave to the orders. */
      const deliver = async (assignments: ReturnType<typeof assignmentsIn>) => {
        for (const { orderId, lineId, keys } of assignments) {
          await track(orders.recordKeys(orderId, lineId, keys, at(40)));
        }
      };
      const request = async (orderId: string, line: OrderLine) => {
        const outcome = await inventory.request(orderId, line.lineId, line.quantity, at(31));
        await track(outcome);
        await deliver(assignmentsIn(outcome.events));
      };
      const before = await storedStats(env.db);
      const stats = async () => {
        await settled();
        const now = await storedStats(env.db);
        return {
          available: (now?.available_keys ?? 0) - (before?.available_keys ?? 0),
          assigned: (now?.assigned_keys ?? 0) - (before?.assigned_keys ?? 0),
          awaiting: (now?.orders_awaiting_keys ?? 0) - (before?.orders_awaiting_keys ?? 0),
          completed: (now?.completed_count ?? 0) - (before?.completed_count ?? 0),
        };
      };

      await track(inventory.add(newKeys(vault, 2), at(30)));
      const paidLine = orderLine('Windows 11 Pro', 1, '19.99', productId);
      const paid = await orders.place({ lines: [paidLine], now: at(31) });
      await request(paid.orderId, paidLine);
      const pendingLine = orderLine('Windows 11 Pro', 2, '19.99', productId);
      const pending = await orders.place({ lines: [pendingLine], captureStatus: 'PENDING', now: at(32) });
      await track(pending);
      const bigLine = orderLine('Windows 11 Pro', 3, '19.99', productId);
      const big = await orders.place({ lines: [bigLine], now: at(33) });
      await request(big.orderId, bigLine);
      // One key each for the first and the big order: the first is fulfilled, the big one waits for two more.
      expect(await stats()).toEqual({ available: 0, assigned: 2, awaiting: 1, completed: 1 });

      await track(orders.completePayment(pending.orderId, at(34)));
      await request(pending.orderId, pendingLine);
      expect(await stats()).toEqual({ available: 0, assigned: 2, awaiting: 2, completed: 1 });

      const cancelled = await orders.changeStatus(big.orderId, 'cancelled', at(35));
      await track(cancelled);
      expect(await stats()).toEqual({ available: 0, assigned: 2, awaiting: 1, completed: 1 });

      const delivery = await inventory.add(newKeys(vault, 5), at(36));
      await track(delivery);
      await deliver(assignmentsIn(delivery.events));
      // Two keys still go to the cancelled big order (the inventory serves every line it was asked for).
      expect(await stats()).toEqual({ available: 1, assigned: 6, awaiting: 0, completed: 2 });
      expect(await storedStats(env.db)).toEqual(await countedStats(env.db));
    });
  });
});
