import { randomUUID } from 'node:crypto';
import { waitForProjections } from '@licensestore/platform/readmodel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appendOrder,
  appendProduct,
  orderCaptured,
  orderLine,
  productFields,
  productUpdated,
} from '../../../projections/test/support/orders.js';
import { callApi, signIn } from './support/api.js';
import { type ApiWithReadModel, startApiWithReadModel } from './support/api-with-read-model.js';
import { readEvents } from './support/checkout.js';

const ADMIN = { username: 'admin', password: 'correct horse battery staple' };
const now = '2026-06-01T12:00:00.000Z';
const STALE =
  /^This was changed by someone else since you loaded it \(revision \d+, now \d+\); reload to see the changes$/;

describe('If-Match on admin writes', () => {
  let store: ApiWithReadModel;
  let admin: string;

  const call = (method: string, path: string, options: { body?: unknown; ifMatch?: string } = {}) =>
    fetch(`${store.api.url}${path}`, {
      method,
      headers: {
        cookie: admin,
        ...(options.ifMatch === undefined ? {} : { 'if-match': options.ifMatch }),
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  const revisionsOf = async (stream: string) => (await readEvents(store.eventStore, stream)).length;
  const applied = async (appending: Promise<{ position: string }>) => {
    const { position } = await appending;
    expect(
      await waitForProjections(store.database.pool, position, { projectors: ['products', 'orders'] }),
    ).toBe(true);
  };

  beforeAll(async () => {
    store = await startApiWithReadModel({ env: { ADMIN_PASSWORD: ADMIN.password } });
    admin = await signIn(store.api.url, ADMIN.username, ADMIN.password);
  });
  afterAll(async () => {
    await store?.stop();
  });

  describe('a product', () => {
    const created = async () => {
      const response = await callApi(store.api.url, 'POST', '/api/products', {
        cookie: admin,
        body: { ...productFields(), salePrice: null },
      });
      expect(response.status).toBe(201);
      const { id } = (await response.json()) as { id: string };
      return { id, stream: `product-${id}` };
    };
    /** Someone else's edit, straight into the log: the product is at revision 1 afterwards. */
    const editedElsewhere = (id: string) =>
      applied(appendProduct(store.eventStore, id, productUpdated(id, { featured: true }, now)));

    it("is answered to the back office with its stream revision as a strong ETag, and the stream's state", async () => {
      const { id } = await created();
      await editedElsewhere(id);

      const response = await call('GET', `/api/admin/products/${id}`);

      expect(response.status).toBe(200);
      expect(response.headers.get('etag')).toBe('"1"');
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await response.json()).toMatchObject({ id, featured: true, name: productFields().name });
    });

    it('is not found by the back office when unknown or deleted', async () => {
      const { id } = await created();
      expect((await call('DELETE', `/api/products/${id}`)).status).toBe(204);
      expect((await call('GET', `/api/admin/products/${id}`)).status).toBe(404);
      expect((await call('GET', `/api/admin/products/${randomUUID()}`)).status).toBe(404);
    });

    it('is changed when the If-Match is the revision the stream is at', async () => {
      const { id, stream } = await created();
      const response = await call('PATCH', `/api/products/${id}`, {
        ifMatch: '"0"',
        body: { name: 'Fresh' },
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ name: 'Fresh' });
      expect(await revisionsOf(stream)).toBe(2);
    });

    it('is refused with 412 and left as it is when the If-Match is stale', async () => {
      const { id, stream } = await created();
      await editedElsewhere(id);

      const patched = await call('PATCH', `/api/products/${id}`, { ifMatch: '"0"', body: { name: 'Stale' } });
      expect(patched.status).toBe(412);
      expect(((await patched.json()) as { error: string }).error).toMatch(STALE);
      const deleted = await call('DELETE', `/api/products/${id}`, { ifMatch: '"0"' });
      expect(deleted.status).toBe(412);

      expect(await revisionsOf(stream)).toBe(2);
      expect((await call('GET', `/api/admin/products/${id}`)).status).toBe(200);
    });

    it('is changed as before when no If-Match is sent, whatever happened since', async () => {
      const { id, stream } = await created();
      await editedElsewhere(id);
      expect((await call('PATCH', `/api/products/${id}`, { body: { inStock: false } })).status).toBe(200);
      expect(await revisionsOf(stream)).toBe(3);
    });

    it.each(['W/"0"', '0', '"zero"', '"0", "1"', '*', ''])(
      'answers 400 to the malformed If-Match %j and changes nothing',
      async (ifMatch) => {
        const { id, stream } = await created();
        const response = await call('PATCH', `/api/products/${id}`, { ifMatch, body: { name: 'Malformed' } });
        expect(response.status).toBe(400);
        expect(((await response.json()) as { error: string }).error).toBe(
          'If-Match must be one ETag as this API gave it, such as "3": the revision you loaded',
        );
        expect(await revisionsOf(stream)).toBe(1);
      },
    );
  });

  describe('an order', () => {
    const placed = async () => {
      const event = orderCaptured({
        name: 'Ada',
        email: 'ada@example.com',
        capturedAt: now,
        lines: [orderLine('Office', 1, '10.00')],
      });
      await applied(appendOrder(store.eventStore, event.data.orderId, event));
      return { id: event.data.orderId, stream: `order-${event.data.orderId}` };
    };
    const setStatus = (id: string, status: string, ifMatch?: string) =>
      call('PATCH', `/api/orders/${id}/status`, { ifMatch, body: { status } });

    it('is answered to the back office with its stream revision as a strong ETag', async () => {
      const { id } = await placed();
      const first = await call('GET', `/api/orders/${id}`);
      expect(first.headers.get('etag')).toBe('"0"');
      expect((await setStatus(id, 'completed')).status).toBe(200);
      const second = await call('GET', `/api/orders/${id}`);
      expect(second.headers.get('etag')).toBe('"1"');
      expect(await second.json()).toMatchObject({ id, status: 'completed' });
    });

    it('changes status when the If-Match is fresh, and refuses a stale one with 412 appending nothing', async () => {
      const { id, stream } = await placed();
      const fresh = await setStatus(id, 'completed', '"0"');
      expect(fresh.status).toBe(200);

      const stale = await setStatus(id, 'pending', '"0"');
      expect(stale.status).toBe(412);
      expect(((await stale.json()) as { error: string }).error).toMatch(STALE);
      expect(await revisionsOf(stream)).toBe(2);
      expect(await (await call('GET', `/api/orders/${id}`)).json()).toMatchObject({ status: 'completed' });
    });

    it('refuses a refund or a delivery e-mail asked for on a stale revision, before anything happens', async () => {
      const { id, stream } = await placed();
      expect((await setStatus(id, 'completed')).status).toBe(200);

      const refund = await call('POST', `/api/orders/${id}/refunds`, {
        ifMatch: '"0"',
        body: { all: true, reason: 'Asked on an old page' },
      });
      expect(refund.status).toBe(412);
      const resend = await call('POST', `/api/orders/${id}/delivery-email`, { ifMatch: '"0"' });
      expect(resend.status).toBe(412);
      expect(await revisionsOf(stream)).toBe(2);
    });

    it('changes status as before without If-Match, and answers 400 to a malformed one', async () => {
      const { id, stream } = await placed();
      const malformed = await setStatus(id, 'pending', 'W/"0"');
      expect(malformed.status).toBe(400);
      expect(await revisionsOf(stream)).toBe(1);
      expect((await setStatus(id, 'pending')).status).toBe(200);
      expect(await revisionsOf(stream)).toBe(2);
    });
  });
});
