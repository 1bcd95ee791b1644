import { randomUUID } from 'node:crypto';
import { checkoutStream, orderStream } from '@licensestore/domain';
import { maskedKey } from '@licensestore/domain/audit';
import type { EventStore } from '@licensestore/domain/events';
import type { DatabaseHandle } from '@licensestore/platform/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshLicenseKey } from '../../../test/support/license-keys.js';
import type { TimelineEntry } from '../src/orders/timeline.js';
import { callApi, signIn, type TestApi } from './support/api.js';
import { type ApiWithReadModel, startApiWithReadModel } from './support/api-with-read-model.js';
import { deliverKeys as deliverKeysOf, seedProduct } from './support/checkout.js';
import { purchase } from './support/purchase.js';

const ADMIN = { username: 'admin', password: 'correct horse battery staple' };
const SEALED = /v1\.[0-9a-f]{8}\./;

describe('GET /api/orders/:id/timeline', () => {
  let database: DatabaseHandle;
  let eventStore: EventStore;
  let store: ApiWithReadModel;
  let api: TestApi;
  let admin: string;

  const call = (method: string, path: string, options: { cookie?: string; body?: unknown } = {}) =>
    callApi(api.url, method, path, options);
  const ok = async <T>(response: Response | Promise<Response>, status = 200): Promise<T> => {
    const answer = await response;
    const text = await answer.text();
    expect({ status: answer.status, text }).toMatchObject({ status });
    return JSON.parse(text) as T;
  };

  const buy = (productId: string) => purchase(api.url, productId);

  const deliverKeys = (orderId: string) => deliverKeysOf(eventStore, database, orderId);

  beforeAll(async () => {
    store = await startApiWithReadModel({ env: { ADMIN_PASSWORD: ADMIN.password } });
    ({ api, database, eventStore } = store);
    admin = await signIn(api.url, ADMIN.username, ADMIN.password);
  });
  afterAll(() => store?.stop());

  describe('for a paid order that got its key', () => {
    let orderId: string;
    let paypalOrderId: string;
    let key: string;
    let timeline: TimelineEntry[];
    let body: string;

    beforeAll(async () => {
      const productId = await seedProduct(eventStore, database);
      key = freshLicenseKey();
      // The other order's key comes first, so the inventory holds events of an order that is not this one.
      for (const added of [freshLicenseKey(), key]) {
        await ok(call('POST', '/api/license-keys', { cookie: admin, body: { productId, key: added } }), 201);
      }
      const other = await buy(productId);
      await deliverKeys(other.orderId);
      ({ orderId, paypalOrderId } = await buy(productId));
      await deliverKeys(orderId);
      await ok(call('POST', `/api/orders/${orderId}/delivery-email`, { cookie: admin }), 202);
      await ok(
        call('PATCH', `/api/orders/${orderId}/status`, { cookie: admin, body: { status: 'cancelled' } }),
      );

      const response = await call('GET', `/api/orders/${orderId}/timeline`, { cookie: admin });
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      body = await response.text();
      timeline = JSON.parse(body);
    });

    it('lists the checkout, the order and the inventory events that served it, oldest first', () => {
      const checkout = checkoutStream(paypalOrderId);
      const order = orderStream(orderId);
      const inventory = expect.stringMatching(/^licenceKeys-/);
      expect(timeline.map(({ stream, type }) => ({ stream, type }))).toStrictEqual([
        { stream: checkout, type: 'CheckoutStarted' },
        { stream: checkout, type: 'CheckoutCaptured' },
        { stream: order, type: 'OrderCaptured' },
        { stream: inventory, type: 'LicenceKeysRequested' },
        { stream: inventory, type: 'LicenceKeysAssigned' },
        { stream: order, type: 'OrderLicenceKeysAssigned' },
        { stream: order, type: 'OrderFulfilled' },
        { stream: order, type: 'DeliveryEmailResendRequested' },
        { stream: order, type: 'OrderStatusChanged' },
      ]);
      const positions = timeline.map((entry) => entry.position);
      expect(positions).toStrictEqual([...positions].sort());
      for (const entry of timeline) {
        expect((entry.data as { orderId?: string }).orderId ?? orderId).toBe(orderId);
      }
    });

    it('says when, who and what for each event', () => {
      const byType = Object.fromEntries(timeline.map((entry) => [entry.type, entry]));
      expect(byType.OrderCaptured).toMatchObject({
        revision: 0,
        actor: { type: 'customer', id: 'ada@example.com' },
        data: { orderId, customer: { name: 'Ada Lovelace', email: 'ada@example.com' }, total: '100.00' },
      });
      expect(byType.OrderStatusChanged).toMatchObject({
        actor: { type: 'admin', id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'admin' },
        data: { from: 'completed', to: 'cancelled' },
      });
      expect(byType.DeliveryEmailResendRequested?.actor).toMatchObject({ type: 'admin', name: 'admin' });
      expect(byType.LicenceKeysRequested?.actor).toStrictEqual({ type: 'system', id: 'workers' });
      for (const entry of timeline) {
        expect(Date.parse(entry.recordedAt)).not.toBeNaN();
        expect(entry.id).toMatch(/^[0-9a-f-]{36}$/);
      }
    });

    it('masks the license key everywhere: neither clear nor sealed, only its last 4 characters', () => {
      expect(body).not.toContain(key);
      expect(body).not.toMatch(SEALED);
      const keyIn = (type: string) => {
        const entry = timeline.find((candidate) => candidate.type === type);
        return (entry?.data as { keys: Array<{ key: string }> } | undefined)?.keys[0]?.key;
      };
      expect(keyIn('LicenceKeysAssigned')).toBe(maskedKey(key));
      expect(keyIn('OrderLicenceKeysAssigned')).toBe(maskedKey(key));
    });
  });

  it('is for admins only: 401 signed out, 403 for a customer', async () => {
    const id = randomUUID();
    expect((await call('GET', `/api/orders/${id}/timeline`)).status).toBe(401);
    const customer = await api.sessionCookie({ kind: 'customer', subjectId: 'ada@example.com' });
    expect((await call('GET', `/api/orders/${id}/timeline`, { cookie: customer })).status).toBe(403);
  });

  it('answers 404 for an order that does not exist', async () => {
    for (const id of [randomUUID(), 'not-an-order']) {
      const response = await call('GET', `/api/orders/${id}/timeline`, { cookie: admin });
      expect({ status: response.status, body: await response.json() }).toStrictEqual({
        status: 404,
        body: { error: 'Order not found' },
      });
    }
  });
});
