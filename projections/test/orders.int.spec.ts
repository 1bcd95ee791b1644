import { randomUUID } from 'node:crypto';
import { type OrderEvent, orderStream } from '@licensestore/domain';
import { eventVersions, type RecordedEvent } from '@licensestore/domain/events';
import { waitForProjections } from '@licensestore/platform/readmodel';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { customersProjector } from '../src/customers/projector.js';
import { dashboardProjector } from '../src/dashboard/projector.js';
import { ordersProjector } from '../src/orders/projector.js';
import { metadata } from './support/catalogue.js';
import { useRunningReadModel } from './support/harness.js';
import { newKeys, ordersIn, testVault } from './support/license-keys.js';
import {
  appendOrder,
  orderCaptured,
  orderLine,
  paymentCompleted,
  paymentDenied,
  refunded,
  statusChanged,
} from './support/orders.js';

describe('orders projector', () => {
  const model = useRunningReadModel();
  const log = model.log;
  const visible = async (position: string) =>
    expect(
      await waitForProjections(model.env.pool, position, { projectors: ['orders'], timeoutMs: 10_000 }),
    ).toBe(true);
  /** Appends to an order's stream and waits until the projector has applied it. */
  const projected = async (orderId: string, ...events: OrderEvent[]) =>
    visible((await appendOrder(model.env.store, orderId, ...events)).position);
  const order = (id: string) =>
    model.env.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst();
  const items = (orderId: string) =>
    model.env.db
      .selectFrom('order_items')
      .selectAll()
      .where('order_id', '=', orderId)
      .orderBy('line_number')
      .execute();

  /** Captures an order (pending or paid) with one line and waits until it is projected. */
  const captured = async (status: 'pending' | 'processing' = 'pending') => {
    const event = orderCaptured({
      name: 'Grace Hopper',
      email: 'grace@example.org',
      lines: [orderLine('Norton 360 Deluxe', 1, '39.99')],
      status,
      capturedAt: '2026-03-02T10:00:00.000Z',
    });
    await projected(event.data.orderId, event);
    return event.data.orderId;
  };

  describe('when an order is captured with two lines', () => {
    it('stores the order and one item per line, in line order', async () => {
      const office = orderLine('Microsoft Office 2021 Professional Plus', 2, '149.50');
      const windows = orderLine('Windows 11 Pro', 1, '19.99');
      const event = orderCaptured({
        paypalOrderId: 'PAYPAL-TWO-LINES',
        name: 'Ada Lovelace',
        email: ' Ada@Example.COM ',
        lines: [office, windows],
        status: 'processing',
        capturedAt: '2026-03-01T09:30:00.000Z',
      });
      const id = event.data.orderId;
      await projected(id, event);

      expect(await order(id)).toEqual({
        id,
        paypal_order_id: 'PAYPAL-TWO-LINES',
        customer_name: 'Ada Lovelace',
        customer_email: ' Ada@Example.COM ',
        customer_email_key: 'ada@example.com',
        total: '318.99',
        currency: 'USD',
        status: 'processing',
        payment_status: 'completed',
        created_at: new Date('2026-03-01T09:30:00.000Z'),
        updated_at: new Date('2026-03-01T09:30:00.000Z'),
        fulfilled_at: null,
        delivery_email_sent_at: null,
        refunded_total: '0.00',
        receipt_number: null,
        client_hash: null,
        review_status: null,
        review_rules: [],
        held_at: null,
      });
      expect(await items(id)).toEqual([
        {
          id: `${id}:${office.lineId}`,
          order_id: id,
          line_id: office.lineId,
          line_number: 0,
          product_id: office.productId,
          product_name: 'Microsoft Office 2021 Professional Plus',
          quantity: 2,
          price: '149.50',
          line_total: '299.00',
          license_keys: [],
          license_key_ids: [],
          refunded_units: 0,
          refunded_key_ids: [],
        },
        {
          id: `${id}:${windows.lineId}`,
          order_id: id,
          line_id: windows.lineId,
          line_number: 1,
          product_id: windows.productId,
          product_name: 'Windows 11 Pro',
          quantity: 1,
          price: '19.99',
          line_total: '19.99',
          license_keys: [],
          license_key_ids: [],
          refunded_units: 0,
          refunded_key_ids: [],
        },
      ]);
    });
  });

  describe('when a pending capture completes', () => {
    it('moves the order from pending to processing, its payment to completed, as of the completion', async () => {
      const id = await captured('pending');
      expect(await order(id)).toMatchObject({ status: 'pending', payment_status: 'pending' });
      await projected(id, paymentCompleted(id, '2026-03-02T10:05:00.000Z'));
      expect(await order(id)).toMatchObject({
        status: 'processing',
        payment_status: 'completed',
        created_at: new Date('2026-03-02T10:00:00.000Z'),
        updated_at: new Date('2026-03-02T10:05:00.000Z'),
      });
    });
  });

  describe('when an event spells the order id in upper case', () => {
    it('applies it to the same order (a uuid is a uuid, whatever its case)', async () => {
      const id = await captured('pending');
      const upper = id.toUpperCase();
      await appendOrder(model.env.store, id, paymentCompleted(upper, '2026-03-02T10:05:00.000Z'));
      await projected(id, statusChanged(upper, 'processing', 'completed', '2026-03-02T10:06:00.000Z'));
      expect(await order(id)).toMatchObject({ status: 'completed' });
    });
  });

  describe('when a paid order is numbered', () => {
    it('stores its receipt number once issued, not when it is requested', async () => {
      const orderId = await captured('processing');
      await projected(orderId, {
        type: 'OrderReceiptRequested',
        data: { orderId, year: 2026, receiptsAfterRevision: null, requestedAt: '2026-03-02T10:00:01.000Z' },
      });
      expect(await order(orderId)).toMatchObject({
        receipt_number: null,
        updated_at: new Date('2026-03-02T10:00:00.000Z'),
      });
      await projected(orderId, {
        type: 'OrderReceiptIssued',
        data: { orderId, receiptNumber: '2026-000042', issuedAt: '2026-03-02T10:00:02.000Z' },
      });
      expect(await order(orderId)).toMatchObject({
        receipt_number: '2026-000042',
        status: 'processing',
        updated_at: new Date('2026-03-02T10:00:02.000Z'),
      });
    });
  });

  describe('when the risk rules hold an order', () => {
    it('shows it held with the rules that matched, then the decision', async () => {
      const orderId = await captured('processing');
      await projected(orderId, {
        type: 'OrderHeldForReview',
        data: { orderId, rules: ['order-total', 'velocity-orders'], heldAt: '2026-03-02T10:00:01.000Z' },
      });
      expect(await order(orderId)).toMatchObject({
        review_status: 'held',
        review_rules: ['order-total', 'velocity-orders'],
        held_at: new Date('2026-03-02T10:00:01.000Z'),
        status: 'processing',
      });
      await projected(orderId, {
        type: 'OrderApproved',
        data: { orderId, automatic: false, approvedAt: '2026-03-02T10:30:00.000Z' },
      });
      expect(await order(orderId)).toMatchObject({
        review_status: 'approved',
        review_rules: ['order-total', 'velocity-orders'],
        updated_at: new Date('2026-03-02T10:30:00.000Z'),
      });
    });
  });

  describe('when a pending capture is denied', () => {
    it('cancels the order, its payment denied', async () => {
      const id = await captured('pending');
      await projected(id, paymentDenied(id, '2026-03-02T10:06:00.000Z'));
      expect(await order(id)).toMatchObject({
        status: 'cancelled',
        payment_status: 'denied',
        updated_at: new Date('2026-03-02T10:06:00.000Z'),
      });
    });
  });

  describe('when an order is refunded', () => {
    it('marks it refunded and keeps its items', async () => {
      const id = await captured('processing');
      await projected(id, refunded(id, '2026-03-03T08:00:00.000Z'));
      expect(await order(id)).toMatchObject({ status: 'refunded', total: '39.99' });
      expect(await items(id)).toHaveLength(1);
    });
  });

  describe('when an admin changes the status', () => {
    it('takes the new status each time, whatever it was', async () => {
      const id = await captured('processing');
      await projected(id, statusChanged(id, 'processing', 'completed', '2026-03-04T08:00:00.000Z'));
      expect(await order(id)).toMatchObject({ status: 'completed' });
      await projected(
        id,
        statusChanged(id, 'completed', 'cancelled', '2026-03-04T09:00:00.000Z'),
        statusChanged(id, 'cancelled', 'pending', '2026-03-04T09:30:00.000Z'),
      );
      expect(await order(id)).toMatchObject({
        status: 'pending',
        updated_at: new Date('2026-03-04T09:30:00.000Z'),
      });
    });
  });

  describe('when a line gets its keys over two assignments and then the order is fulfilled', () => {
    it("lists each line's sealed keys in assignment order, completes the order as of its fulfilment and records the e-mail", async () => {
      const orders = ordersIn(model.env.store);
      const vault = testVault();
      const office = orderLine('Microsoft Office 2021 Professional Plus', 3, '149.50');
      const windows = orderLine('Windows 11 Pro', 1, '19.99');
      const { orderId } = await orders.place({ lines: [office, windows], now: '2026-03-08T08:00:00.000Z' });
      const keys = newKeys(vault, 4);
      const given = keys.map(({ keyId, key }) => ({ keyId, key }));
      const sealed = keys.map(({ key }) => key);

      const first = await orders.recordKeys(
        orderId,
        office.lineId,
        given.slice(0, 2),
        '2026-03-08T08:01:00.000Z',
      );
      await visible(first.position as string);
      expect((await items(orderId)).map((item) => item.license_keys)).toEqual([sealed.slice(0, 2), []]);
      expect(await order(orderId)).toMatchObject({
        status: 'processing',
        updated_at: new Date('2026-03-08T08:01:00.000Z'),
        fulfilled_at: null,
      });

      await orders.recordKeys(orderId, windows.lineId, given.slice(3), '2026-03-08T08:02:00.000Z');
      const last = await orders.recordKeys(
        orderId,
        office.lineId,
        given.slice(2, 3),
        '2026-03-08T08:03:00.000Z',
      );
      expect(last.events.map((event) => event.type)).toEqual(['OrderLicenceKeysAssigned', 'OrderFulfilled']);
      await visible(last.position as string);
      const lines = await items(orderId);
      expect(lines.map((item) => item.license_keys)).toEqual([sealed.slice(0, 3), sealed.slice(3)]);
      expect(lines[0]?.license_keys.map((key) => vault.open(key))).toEqual(
        keys.slice(0, 3).map((key) => key.text),
      );
      expect(await order(orderId)).toMatchObject({
        status: 'completed',
        updated_at: new Date('2026-03-08T08:03:00.000Z'),
        fulfilled_at: new Date('2026-03-08T08:03:00.000Z'),
        delivery_email_sent_at: null,
      });

      const sent = await orders.recordEmailSent(orderId, randomUUID(), '2026-03-08T08:04:00.000Z');
      await visible(sent.position as string);
      expect(await order(orderId)).toMatchObject({
        status: 'completed',
        delivery_email_sent_at: new Date('2026-03-08T08:04:00.000Z'),
      });
    });
  });

  describe('when an order an admin cancelled gets all its keys', () => {
    it('records the fulfilment and leaves it cancelled (only a processing order completes)', async () => {
      const orders = ordersIn(model.env.store);
      const line = orderLine('WinRAR', 1, '29.00');
      const { orderId } = await orders.place({ lines: [line], now: '2026-03-09T08:00:00.000Z' });
      await orders.changeStatus(orderId, 'cancelled', '2026-03-09T08:01:00.000Z');
      const keys = newKeys(testVault(), 1).map(({ keyId, key }) => ({ keyId, key }));
      const fulfilled = await orders.recordKeys(orderId, line.lineId, keys, '2026-03-09T08:02:00.000Z');
      await visible(fulfilled.position as string);
      expect(await order(orderId)).toMatchObject({
        status: 'cancelled',
        fulfilled_at: new Date('2026-03-09T08:02:00.000Z'),
      });
    });
  });

  describe('when a pending capture completes after an admin cancelled it', () => {
    it('leaves it cancelled, as the order stream does (a completed payment moves only a pending order on)', async () => {
      const id = await captured('pending');
      await appendOrder(
        model.env.store,
        id,
        statusChanged(id, 'pending', 'cancelled', '2026-03-02T10:03:00.000Z'),
      );
      await projected(id, paymentCompleted(id, '2026-03-02T10:05:00.000Z'));
      expect(await order(id)).toMatchObject({ status: 'cancelled' });
    });
  });

  describe('when events are not what they should be', () => {
    it('skips an event whose data does not parse, logs it, and moves past it', async () => {
      const id = randomUUID();
      const bad = await model.env.store.append(
        orderStream(id),
        [{ type: 'OrderCaptured', data: { orderId: id, total: 'lots' }, metadata }],
        'no_stream',
      );
      const next = await captured('processing');
      expect(await order(id)).toBeUndefined();
      expect(await order(next)).toBeDefined();
      expect(log.lines).toContainEqual(
        expect.objectContaining({
          level: 'warn',
          fields: expect.objectContaining({ projector: 'orders', position: bad.position }),
        }),
      );
    });

    it('stores text Postgres refuses (NUL, lone surrogates, as EventStoreDB may deliver) with U+FFFD', async () => {
      const event = orderCaptured({
        name: 'Eve\u0000 \ud800',
        email: 'EVE\u0000@example.com',
        lines: [orderLine('Bad\u0000name', 1, '1.00')],
        capturedAt: '2026-03-05T07:00:00.000Z',
      });
      const recorded: RecordedEvent = {
        id: randomUUID(),
        streamId: orderStream(event.data.orderId),
        revision: 0n,
        type: event.type,
        data: event.data,
        metadata: { ...metadata, schemaVersion: eventVersions.currentVersion(event.type) },
        position: '0',
        createdAt: new Date(),
      };
      const schema = 'delivered_by_esdb';
      await sql`CREATE SCHEMA ${sql.id(schema)}`.execute(model.env.db);
      for (const projector of [ordersProjector, customersProjector, dashboardProjector]) {
        await projector.createTables(model.env.db, schema);
        await model.env.db
          .transaction()
          .execute((trx) => projector.apply(trx, [recorded], { schema, log: log.logger }));
      }
      const stored = await sql<{ customer_name: string; customer_email_key: string; product_name: string }>`
        SELECT customer_name, customer_email_key, product_name
          FROM ${sql.table(`${schema}.orders`)} JOIN ${sql.table(`${schema}.order_items`)} i ON i.order_id = orders.id`.execute(
        model.env.db,
      );
      expect(stored.rows).toEqual([
        {
          customer_name: 'Eve\ufffd \ufffd',
          customer_email_key: 'eve\ufffd@example.com',
          product_name: 'Bad\ufffdname',
        },
      ]);
      await sql`DROP SCHEMA ${sql.id(schema)} CASCADE`.execute(model.env.db);
    });

    it('ignores a status change for an order it never saw', async () => {
      const id = randomUUID();
      await projected(id, refunded(id, '2026-03-05T08:00:00.000Z'));
      expect(await order(id)).toBeUndefined();
    });

    it('keeps one order per PayPal order: a second order claiming it is skipped and logged', async () => {
      const first = orderCaptured({
        paypalOrderId: 'PAYPAL-TAKEN',
        name: 'First',
        email: 'first@example.com',
        lines: [orderLine('WinRAR', 1, '29.00')],
        capturedAt: '2026-03-06T08:00:00.000Z',
      });
      const second = orderCaptured({
        paypalOrderId: 'PAYPAL-TAKEN',
        name: 'Second',
        email: 'second@example.com',
        lines: [orderLine('WinRAR', 1, '29.00')],
        capturedAt: '2026-03-06T08:01:00.000Z',
      });
      await appendOrder(model.env.store, first.data.orderId, first);
      await projected(second.data.orderId, second);
      expect(await order(first.data.orderId)).toMatchObject({ customer_name: 'First' });
      expect(await order(second.data.orderId)).toBeUndefined();
      expect(log.lines).toContainEqual(
        expect.objectContaining({
          level: 'warn',
          msg: 'skipping a capture whose PayPal order belongs to another order',
        }),
      );
    });

    it('replaces the order and its lines when the same order is captured again', async () => {
      const kept = orderLine('Windows 11 Home', 1, '99.00');
      const dropped = orderLine('Windows 11 Pro', 1, '149.00');
      const event = orderCaptured({
        name: 'Linus',
        email: 'linus@example.net',
        lines: [kept, dropped],
        capturedAt: '2026-03-07T08:00:00.000Z',
      });
      const id = event.data.orderId;
      await projected(id, event);
      const again = orderCaptured({
        orderId: id,
        paypalOrderId: event.data.paypalOrderId,
        name: 'Linus T.',
        email: 'linus@example.net',
        lines: [kept],
        capturedAt: '2026-03-07T08:00:00.000Z',
      });
      await projected(id, again);
      expect(await order(id)).toMatchObject({ customer_name: 'Linus T.', total: '99.00' });
      expect((await items(id)).map((item) => item.line_id)).toEqual([kept.lineId]);
    });
  });
});
