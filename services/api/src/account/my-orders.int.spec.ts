import { randomUUID } from 'node:crypto';
import { type OrderEvent, orderEventSchemas } from '@licensestore/domain';
import type { EventStore } from '@licensestore/domain/events';
import type { DatabaseHandle } from '@licensestore/platform/db';
import { waitForProjections } from '@licensestore/platform/readmodel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendOrder, orderCaptured, orderLine } from '../../../../projections/test/support/orders.js';
import { signIn, type TestApi } from '../../test/support/api.js';
import { type ApiWithReadModel, startApiWithReadModel } from '../../test/support/api-with-read-model.js';

const ADMIN = { username: 'admin', password: 'correct horse battery staple' };
const at = (day: number) => new Date(Date.UTC(2026, 10, day, 12)).toISOString();

describe('GET /api/my-orders', () => {
  let database: DatabaseHandle;
  let eventStore: EventStore;
  let store: ApiWithReadModel;
  let api: TestApi;

  const myOrders = (cookie?: string) =>
    fetch(`${api.url}/api/my-orders`, { headers: cookie ? { cookie } : {} });

  /** Appends to the order's stream and waits until the orders read model has it. */
  const record = async (orderId: string, ...events: OrderEvent[]) => {
    const { position } = await appendOrder(eventStore, orderId, ...events);
    expect(
      await waitForProjections(database.pool, position, { projectors: ['orders'], timeoutMs: 10_000 }),
    ).toBe(true);
  };
  const capture = async (
    email: string,
    capturedAt: string,
    lines = [orderLine('Windows 11 Pro', 1, '19.99')],
  ) => {
    const event = orderCaptured({ name: 'Ada Lovelace', email, lines, capturedAt });
    await record(event.data.orderId, event);
    return event.data;
  };
  /** Keys sealed the way the inventory seals them, so the api opens them with its own vault. */
  const assignKeys = (orderId: string, lineId: string, keys: string[]) =>
    record(orderId, {
      type: 'OrderLicenceKeysAssigned',
      data: orderEventSchemas.OrderLicenceKeysAssigned.parse({
        orderId,
        lineId,
        keys: keys.map((key) => ({ keyId: randomUUID(), key: api.keyVault.seal(key) })),
        assignedAt: new Date().toISOString(),
      }),
    });

  beforeAll(async () => {
    store = await startApiWithReadModel({ env: { ADMIN_PASSWORD: ADMIN.password } });
    ({ api, database, eventStore } = store);
  });
  afterAll(() => store?.stop());

  describe('when signed out or signed in as an admin only', () => {
    it('answers 401', async () => {
      const admin = await signIn(api.url, ADMIN.username, ADMIN.password);
      for (const cookie of [undefined, admin, 'sid=not-a-session']) {
        const response = await myOrders(cookie);
        expect(response.status).toBe(401);
        expect(await response.json()).toStrictEqual({ error: 'Authentication required' });
      }
    });
  });

  describe('when signed in as a customer', () => {
    it('answers an empty list before their first order, uncached', async () => {
      const response = await myOrders(
        await api.sessionCookie({ kind: 'customer', subjectId: 'new@example.com' }),
      );
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await response.json()).toStrictEqual([]);
    });

    it('lists only the orders placed with their address (in any case), newest first, with items and keys', async () => {
      const email = `grace-${randomUUID()}@example.org`;
      const office = orderLine('Microsoft Office 2021 Professional Plus', 2, '149.50');
      const windows = orderLine('Windows 11 Pro', 1, '19.99');
      const older = await capture(email.toUpperCase(), at(1), [office, windows]);
      const newer = await capture(` ${email} `, at(3));
      const someoneElses = await capture(`other-${email}`, at(2));
      await assignKeys(older.orderId, office.lineId, ['AAAAA-11111', 'BBBBB-22222']);

      const response = await myOrders(await api.sessionCookie({ kind: 'customer', subjectId: email }));
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const orders = (await response.json()) as { id: string }[];

      expect(orders.map((order) => order.id)).toStrictEqual([newer.orderId, older.orderId]);
      expect(orders.map((order) => order.id)).not.toContain(someoneElses.orderId);
      expect(orders[1]).toStrictEqual({
        id: older.orderId,
        customerName: 'Ada Lovelace',
        customerEmail: email.toUpperCase(),
        total: '318.99',
        status: 'processing',
        createdAt: at(1),
        paymentStatus: 'completed',
        deliveryEmailSentAt: null,
        receiptNumber: null,
        reviewStatus: null,
        refunds: [],
        refundedTotal: '0.00',
        netTotal: '318.99',
        hasAccess: true,
        items: [
          {
            id: `${older.orderId}:${office.lineId}`,
            productName: 'Microsoft Office 2021 Professional Plus',
            quantity: 2,
            price: '149.50',
            licenseKey: 'AAAAA-11111',
            licenseKeys: ['AAAAA-11111', 'BBBBB-22222'],
            downloadUrl: null,
            installationNotes: null,
          },
          {
            id: `${older.orderId}:${windows.lineId}`,
            productName: 'Windows 11 Pro',
            quantity: 1,
            price: '19.99',
            licenseKey: null,
            licenseKeys: [],
            downloadUrl: null,
            installationNotes: null,
          },
        ],
      });
    });

    it("never shows another customer's orders", async () => {
      const mine = `mine-${randomUUID()}@example.com`;
      const theirs = `theirs-${randomUUID()}@example.com`;
      const theirOrder = await capture(theirs, at(5));
      const myOrder = await capture(mine, at(4));

      const response = await myOrders(await api.sessionCookie({ kind: 'customer', subjectId: mine }));
      const ids = ((await response.json()) as { id: string }[]).map((order) => order.id);
      expect(ids).toStrictEqual([myOrder.orderId]);
      expect(ids).not.toContain(theirOrder.orderId);
    });
  });
});
