import { buyerOrderMoneySchema } from '@licensestore/contract/orders';
import type { EventStore } from '@licensestore/domain/events';
import { type DatabaseHandle, openDatabase } from '@licensestore/platform/db';
import { openEventStore } from '@licensestore/platform/eventstore';
import { waitForProjections } from '@licensestore/platform/readmodel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger, startProjections } from '../../../../projections/src/index.js';
import { appendOrder, orderCaptured, orderLine } from '../../../../projections/test/support/orders.js';
import { createTestDatabase } from '../../../../test/support/database.js';
import { startTestApi, type TestApi } from '../../test/support/api.js';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 20, 12, minute)).toISOString();

describe("The buyer's view of an order after a refund", () => {
  let database: DatabaseHandle;
  let eventStore: EventStore;
  let stopProjections: () => Promise<void>;
  let api: TestApi;

  beforeAll(async () => {
    const databaseUrl = await createTestDatabase();
    stopProjections = await startProjections({ databaseUrl, logger: silentLogger });
    api = await startTestApi({ databaseUrl });
    database = openDatabase(databaseUrl);
    eventStore = await openEventStore({ databaseUrl });
  });
  afterAll(async () => {
    await api?.stop();
    await stopProjections?.();
    await eventStore?.close();
    await database?.close();
  });

  /** An order of two units at $19.99, one of them refunded by PayPal. */
  async function partlyRefundedOrder(email: string) {
    const line = orderLine('Windows 11 Pro', 2, '19.99');
    const captured = orderCaptured({ name: 'Ada Lovelace', email, lines: [line], capturedAt: at(0) });
    const { orderId } = captured.data;
    const { position } = await appendOrder(eventStore, orderId, captured, {
      type: 'OrderRefundCompleted',
      data: {
        orderId,
        refundId: null,
        paypalRefundId: 'PAYPAL-REFUND-1',
        units: [{ lineId: line.lineId, keyId: null }],
        amount: '19.99',
        completedAt: at(5),
      },
    });
    expect(
      await waitForProjections(database.pool, position, { projectors: ['orders'], timeoutMs: 10_000 }),
    ).toBe(true);
    return orderId;
  }

  const refundedMoney = {
    refunds: [{ amount: '19.99', completedAt: at(5), productNames: ['Windows 11 Pro'] }],
    refundedTotal: '19.99',
    netTotal: '19.99',
  };

  it('GET /api/orders/:id names each refund and the net paid, and tells a visitor without access that they have none', async () => {
    const orderId = await partlyRefundedOrder('ada-page@example.com');
    const response = await fetch(`${api.url}/api/orders/${orderId}`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { total: string };
    expect(buyerOrderMoneySchema.parse(body)).toEqual({ ...refundedMoney, hasAccess: false });
    expect(body.total).toBe('39.98');
  });

  it('GET /api/orders/:id says the signed-in owner has access', async () => {
    const orderId = await partlyRefundedOrder('ada-owner@example.com');
    const cookie = await api.sessionCookie({ kind: 'customer', subjectId: 'ada-owner@example.com' });
    const body = await (await fetch(`${api.url}/api/orders/${orderId}`, { headers: { cookie } })).json();
    expect(buyerOrderMoneySchema.parse(body).hasAccess).toBe(true);
  });

  it('GET /api/my-orders gives each order its refunds and net paid', async () => {
    const orderId = await partlyRefundedOrder('ada-list@example.com');
    const cookie = await api.sessionCookie({ kind: 'customer', subjectId: 'ada-list@example.com' });
    const [order] = (await (await fetch(`${api.url}/api/my-orders`, { headers: { cookie } })).json()) as [
      { id: string },
    ];
    expect(order.id).toBe(orderId);
    expect(buyerOrderMoneySchema.parse(order)).toEqual({ ...refundedMoney, hasAccess: true });
  });
});
