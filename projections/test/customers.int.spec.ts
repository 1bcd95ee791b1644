import type { OrderEvent } from '@licensestore/domain';
import { waitForProjections } from '@licensestore/platform/readmodel';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useRunningReadModel } from './support/harness.js';
import {
  appendOrder,
  orderCaptured,
  orderLine,
  paymentCompleted,
  paymentDenied,
  refunded,
  statusChanged,
} from './support/orders.js';

describe('customers projector', () => {
  const model = useRunningReadModel();
  const log = model.log;
  let last = '';
  const visible = async (position: string) => {
    if (position > last) last = position;
    expect(
      await waitForProjections(model.env.pool, position, { projectors: ['customers'], timeoutMs: 10_000 }),
    ).toBe(true);
  };
  /** Appends to an order's stream and waits until the projector has applied it. */
  const projected = async (orderId: string, ...events: OrderEvent[]) =>
    visible((await appendOrder(model.env.store, orderId, ...events)).position);
  const customer = (key: string) =>
    model.env.db
      .selectFrom('customers')
      .select(['email_key', 'email', 'name', 'order_count', 'last_order_at'])
      .select(sql<string>`total_spent::text`.as('total_spent'))
      .where('email_key', '=', key)
      .executeTakeFirst();
  const capture = async (options: Parameters<typeof orderCaptured>[0]) => {
    const event = orderCaptured(options);
    await projected(event.data.orderId, event);
    return event.data.orderId;
  };

  describe('when one person orders under e-mails that differ in case and spacing', () => {
    it('is one customer: every order counted, only money kept spent, name and e-mail of the latest order', async () => {
      const kept = await capture({
        name: 'Ada',
        email: 'ada@example.com',
        lines: [orderLine('Windows 11 Pro', 2, '100.00')],
        status: 'processing',
        capturedAt: '2026-04-01T10:00:00.000Z',
      });
      const denied = await capture({
        name: 'Ada L.',
        email: 'ADA@EXAMPLE.COM',
        lines: [orderLine('Norton 360', 1, '50.00')],
        status: 'pending',
        capturedAt: '2026-04-02T10:00:00.000Z',
      });
      const refundedOrder = await capture({
        name: 'Ada Lovelace',
        email: ' Ada@Example.com',
        lines: [orderLine('Adobe Acrobat Pro', 1, '30.25')],
        status: 'processing',
        capturedAt: '2026-04-03T10:00:00.000Z',
      });
      expect(await customer('ada@example.com')).toEqual({
        email_key: 'ada@example.com',
        email: ' Ada@Example.com',
        name: 'Ada Lovelace',
        order_count: 3,
        total_spent: '280.25',
        last_order_at: new Date('2026-04-03T10:00:00.000Z'),
      });

      await appendOrder(model.env.store, denied, paymentDenied(denied, '2026-04-04T10:00:00.000Z'));
      await projected(refundedOrder, refunded(refundedOrder, '2026-04-04T11:00:00.000Z'));
      // The declined order is no longer Ada's: PayPal never paid it.
      expect(await customer('ada@example.com')).toMatchObject({
        order_count: 2,
        total_spent: '200.00',
        name: 'Ada Lovelace',
        last_order_at: new Date('2026-04-03T10:00:00.000Z'),
      });

      // An admin setting the declined order going again brings no money (PayPal never paid it); completing the kept
      // one changes nothing.
      await appendOrder(
        model.env.store,
        denied,
        statusChanged(denied, 'cancelled', 'completed', '2026-04-05T10:00:00.000Z'),
      );
      await projected(kept, statusChanged(kept, 'processing', 'completed', '2026-04-05T11:00:00.000Z'));
      expect(await customer('ada@example.com')).toMatchObject({ order_count: 2, total_spent: '200.00' });
    });
  });

  describe('when an older order is recorded after a newer one', () => {
    it('keeps the name of the latest order by capture time', async () => {
      await capture({
        name: 'Grace Hopper',
        email: 'grace@example.org',
        lines: [orderLine('WinRAR', 1, '29.00')],
        capturedAt: '2026-04-10T10:00:00.000Z',
      });
      await capture({
        name: 'G. Hopper (old)',
        email: 'GRACE@example.org',
        lines: [orderLine('WinRAR', 1, '29.00')],
        capturedAt: '2026-04-09T10:00:00.000Z',
      });
      expect(await customer('grace@example.org')).toEqual({
        email_key: 'grace@example.org',
        email: 'grace@example.org',
        name: 'Grace Hopper',
        order_count: 2,
        total_spent: '58.00',
        last_order_at: new Date('2026-04-10T10:00:00.000Z'),
      });
    });
  });

  describe('when a pending order completes payment', () => {
    it('keeps counting its money (a pending capture is money PayPal holds for the store)', async () => {
      const id = await capture({
        name: 'Margaret',
        email: 'margaret@example.com',
        lines: [orderLine('Visio', 1, '75.00')],
        status: 'pending',
        capturedAt: '2026-04-11T10:00:00.000Z',
      });
      expect(await customer('margaret@example.com')).toMatchObject({ total_spent: '75.00' });
      await projected(id, paymentCompleted(id, '2026-04-11T10:01:00.000Z'));
      expect(await customer('margaret@example.com')).toMatchObject({ order_count: 1, total_spent: '75.00' });
    });
  });

  describe('when the only order of a buyer is declined', () => {
    it('leaves no customer behind, and a later paid order makes them one from that order alone', async () => {
      const id = await capture({
        name: 'Barbara',
        email: 'barbara@example.com',
        lines: [orderLine('Norton 360', 1, '40.00')],
        status: 'pending',
        capturedAt: '2026-04-12T10:00:00.000Z',
      });
      expect(await customer('barbara@example.com')).toMatchObject({ order_count: 1, total_spent: '40.00' });
      await projected(id, paymentDenied(id, '2026-04-12T10:05:00.000Z'));
      expect(await customer('barbara@example.com')).toBeUndefined();

      await capture({
        name: 'Barbara Liskov',
        email: 'Barbara@example.com',
        lines: [orderLine('Visio', 1, '75.00')],
        capturedAt: '2026-04-11T10:00:00.000Z',
      });
      expect(await customer('barbara@example.com')).toEqual({
        email_key: 'barbara@example.com',
        email: 'Barbara@example.com',
        name: 'Barbara Liskov',
        order_count: 1,
        total_spent: '75.00',
        last_order_at: new Date('2026-04-11T10:00:00.000Z'),
      });
    });
  });

  describe('the whole table', () => {
    it('agrees with the orders PayPal did not decline grouped by email key', async () => {
      expect(
        await waitForProjections(model.env.pool, last, {
          projectors: ['orders', 'customers'],
          timeoutMs: 10_000,
        }),
      ).toBe(true);
      const { rows } = await sql<Record<string, unknown>>`
        WITH grouped AS (
          SELECT customer_email_key AS email_key, count(*)::int AS order_count,
                 coalesce(sum(total) FILTER (WHERE status NOT IN ('cancelled', 'refunded')), 0)::numeric(12, 2)
                   AS total_spent,
                 max(created_at) AS last_order_at
            FROM orders WHERE payment_status <> 'denied' GROUP BY customer_email_key)
        SELECT g.*, c.order_count AS c_order_count, c.total_spent AS c_total_spent,
               c.last_order_at AS c_last_order_at
          FROM grouped g FULL JOIN customers c USING (email_key)
         WHERE c.email_key IS NULL OR g.email_key IS NULL OR g.order_count <> c.order_count
            OR g.total_spent <> c.total_spent OR g.last_order_at <> c.last_order_at`.execute(model.env.db);
      expect(rows).toEqual([]);
      const count = await model.env.db
        .selectFrom('customers')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(4);
      expect(log.lines.filter((line) => line.level === 'error' || line.level === 'warn')).toEqual([]);
    });
  });
});
