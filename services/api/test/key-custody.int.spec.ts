import { randomUUID } from 'node:crypto';
import { type OrderItemView, orderCustodyStream, orderStream } from '@licensestore/domain';
import { maskedKey } from '@licensestore/domain/audit';
import type { RecordedEvent } from '@licensestore/domain/events';
import type { KeyHistoryView } from '@licensestore/domain/key-history';
import { waitForProjections } from '@licensestore/platform/readmodel';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ApiWithReadModel, startApiWithReadModel } from './support/api-with-read-model.js';
import { deliverKeys, readEvents, recordDeliveryEmailSent } from './support/checkout.js';
import { openStream } from './support/order-stream.js';
import { cookieSet, type Purchase, purchase } from './support/purchase.js';

const CUSTOMER = 'ada@example.com';
const HEX64 = /^[0-9a-f]{64}$/;

interface Revealed {
  keyIds: string[];
  channel: string;
  viewer: { type: string; id: string | null };
  clientHash: string;
}

describe('Key custody', () => {
  let store: ApiWithReadModel;
  let admin: string;
  let adminId: string;
  let auditor: string;
  let customer: string;
  let order: Purchase;
  let keyId: string;
  let key: string;

  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${store.api.url}${path}`, { headers });
  /** Showings are kept on the order's custody stream; none goes to the order's own stream. */
  const reveals = async (): Promise<Revealed[]> => {
    const onOrder = (await readEvents(store.eventStore, orderStream(order.orderId))).filter(
      (event: RecordedEvent) => event.type === 'LicenceKeysRevealed',
    );
    expect(onOrder).toEqual([]);
    return (await readEvents(store.eventStore, orderCustodyStream(order.orderId)))
      .filter((event: RecordedEvent) => event.type === 'LicenceKeysRevealed')
      .map((event) => event.data as Revealed);
  };
  /** The reveals appended since `before` was taken. */
  const since = async (before: number) => (await reveals()).slice(before);
  const itemsAs = async (cookie: string) => {
    const response = await get(`/api/orders/${order.orderId}/items`, { cookie });
    expect(response.status).toBe(200);
    return { response, items: (await response.json()) as OrderItemView[] };
  };

  let productId: string;
  /** An order of the buyer with its key delivered, and that key's id and text; each one a showing not yet recorded. */
  const boughtWithKey = async () => {
    const bought = await purchase(store.api.url, productId, {
      customerName: 'Ada Lovelace',
      customerEmail: CUSTOMER,
    });
    const [first] = await deliverKeys(store.eventStore, store.database, bought.orderId);
    return { ...bought, keyId: first?.keyId as string, key: store.api.keyVault.open(first?.key as string) };
  };

  beforeAll(async () => {
    store = await startApiWithReadModel({ env: { ADMIN_PASSWORD: 'correct horse battery staple' } });
    adminId = randomUUID();
    admin = await store.api.sessionCookie({ kind: 'admin', subjectId: adminId });
    auditor = await store.api.sessionCookie({ kind: 'auditor', subjectId: randomUUID() });
    customer = await store.api.sessionCookie({ kind: 'customer', subjectId: CUSTOMER });
    productId = await store.productWithKeys(4);
    const bought = await boughtWithKey();
    ({ keyId, key } = bought);
    order = bought;
  });
  afterAll(async () => {
    await store?.stop();
  });

  let before = 0;
  beforeEach(async () => {
    before = (await reveals()).length;
  });

  describe('records each showing in clear, by the door it came through', () => {
    it('the paying browser (confirmation page): once for the page, not again for its event stream', async () => {
      const { response, items } = await itemsAs(order.orderCookie);
      expect(items[0]?.licenseKeys).toEqual([key]);
      const recorded = await since(before);
      expect(recorded).toEqual([
        {
          orderId: order.orderId,
          keyIds: [keyId],
          channel: 'confirmation-page',
          viewer: { type: 'order-link', id: null },
          clientHash: expect.stringMatching(HEX64),
          revealedAt: expect.any(String),
        },
      ]);

      // The page then opens its event stream with the page-view cookie the items left: the same showing.
      const pageView = cookieSet(response, 'key_view');
      const stream = await openStream(
        `${store.api.url}/api/orders/${order.orderId}/events`,
        `${order.orderCookie}; ${pageView}`,
      );
      expect((await stream.next()).items[0]?.licenseKeys).toEqual([key]);
      const id = stream.lastEventId();
      expect(id).toMatch(/^\d{13}\.[\w-]{43}$/);
      stream.leave();
      expect(await since(before)).toHaveLength(1);

      // Its EventSource reconnecting (Last-Event-ID) is the same page view; a new page load within the hour is the
      // same showing too: one record per reader, door and keys an hour.
      const reconnected = await openStream(
        `${store.api.url}/api/orders/${order.orderId}/events`,
        order.orderCookie,
        id,
      );
      await reconnected.next();
      reconnected.leave();
      expect(await since(before)).toHaveLength(1);
      const reloaded = await openStream(
        `${store.api.url}/api/orders/${order.orderId}/events`,
        order.orderCookie,
      );
      await reloaded.next();
      reloaded.leave();
      await itemsAs(order.orderCookie);
      expect((await since(before)).map((each) => each.channel)).toEqual(['confirmation-page']);
    });

    it('refuses a page-view token made for another showing: recorded all the same', async () => {
      const other = await boughtWithKey();
      const forged = `${Date.now()}.${'A'.repeat(43)}`;
      const stream = await openStream(
        `${store.api.url}/api/orders/${other.orderId}/events`,
        other.orderCookie,
        forged,
      );
      expect((await stream.next()).items[0]?.licenseKeys).toHaveLength(1);
      stream.leave();
      const recorded = await readEvents(store.eventStore, orderCustodyStream(other.orderId));
      expect(recorded.map((event) => event.type)).toEqual(['LicenceKeysRevealed']);
    });

    it("the delivery e-mail's link: channel email-link", async () => {
      const token = store.api.orderAccess.token('order-link', order.orderId);
      const traded = await fetch(`${store.api.url}/api/orders/${order.orderId}/access`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token }),
      });
      expect(traded.status).toBe(204);
      const { items } = await itemsAs(cookieSet(traded, 'order_access'));
      expect(items[0]?.licenseKeys).toEqual([key]);
      expect(await since(before)).toEqual([
        expect.objectContaining({ channel: 'email-link', viewer: { type: 'order-link', id: null } }),
      ]);
    });

    it('My Orders: channel my-orders, the customer by address', async () => {
      const response = await get('/api/my-orders', { cookie: customer });
      expect(response.status).toBe(200);
      const views = (await response.json()) as Array<{ id: string; items: OrderItemView[] }>;
      const shown = views.find((view) => view.id === order.orderId);
      expect(shown?.items[0]?.licenseKeys).toEqual([key]);
      expect(await since(before)).toEqual([
        expect.objectContaining({
          keyIds: [keyId],
          channel: 'my-orders',
          viewer: { type: 'customer', id: CUSTOMER },
        }),
      ]);
    });

    it("an admin's reveal: the back office gets the key masked, and in clear only by the recorded reveal", async () => {
      const { items } = await itemsAs(admin);
      expect(items[0]?.licenseKeys).toEqual([maskedKey(key)]);
      expect(items[0]?.licenseKeyIds).toEqual([keyId]);
      expect(await since(before)).toEqual([]);

      const response = await fetch(`${store.api.url}/api/license-keys/${keyId}/reveal`, {
        method: 'POST',
        headers: { cookie: admin },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await response.json()).toEqual({ keyId, licenseKey: key });
      expect(await since(before)).toEqual([
        expect.objectContaining({
          keyIds: [keyId],
          channel: 'admin-reveal',
          viewer: { type: 'admin', id: adminId },
        }),
      ]);
    });

    it('records nothing for masked (auditor) or withheld (no access) views, and an auditor cannot reveal', async () => {
      expect((await itemsAs(auditor)).items[0]?.licenseKeys).toEqual([maskedKey(key)]);
      expect((await itemsAs('')).items[0]).toMatchObject({ keysWithheld: true });
      const stream = await openStream(`${store.api.url}/api/orders/${order.orderId}/events`, auditor);
      await stream.next();
      stream.leave();
      const refused = await fetch(`${store.api.url}/api/license-keys/${keyId}/reveal`, {
        method: 'POST',
        headers: { cookie: auditor },
      });
      expect(refused.status).toBe(403);
      const unknown = await fetch(`${store.api.url}/api/license-keys/${randomUUID()}/reveal`, {
        method: 'POST',
        headers: { cookie: admin },
      });
      expect(unknown.status).toBe(404);
      expect(await since(before)).toEqual([]);
    });

    it('hashes the client address: the same address, the same hash, never the address itself', async () => {
      const all = await reveals();
      expect(new Set(all.map((each) => each.clientHash)).size).toBe(1);
      expect(JSON.stringify(all)).not.toContain('127.0.0.1');
    });
  });

  describe('when the showing cannot be recorded', () => {
    it('shows no key in clear (503) and the page can try again', async () => {
      // An order none of whose showings is recorded yet: a recorded one is not written again.
      const fresh = await boughtWithKey();
      await store.database.pool.query(`
        CREATE FUNCTION event_store.refuse_reveals() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW.event_type = 'LicenceKeysRevealed' THEN RAISE EXCEPTION 'reveals refused by the test'; END IF;
          RETURN NEW;
        END $$;
        CREATE TRIGGER refuse_reveals BEFORE INSERT ON event_store.events
          FOR EACH ROW EXECUTE FUNCTION event_store.refuse_reveals();`);
      try {
        for (const [path, cookie] of [
          [`/api/orders/${fresh.orderId}/items`, fresh.orderCookie],
          ['/api/my-orders', customer],
          [`/api/orders/${fresh.orderId}/events`, fresh.orderCookie],
        ] as const) {
          const response = await get(path, { cookie });
          const text = await response.text();
          expect({ path, status: response.status }).toEqual({ path, status: 503 });
          expect(JSON.parse(text)).toEqual({
            error: 'The license keys cannot be shown right now; please try again in a moment',
          });
          expect(text).not.toContain(fresh.key);
        }
      } finally {
        await store.database.pool.query(`
          DROP TRIGGER refuse_reveals ON event_store.events;
          DROP FUNCTION event_store.refuse_reveals();`);
      }
      expect(
        store.api.logger.entries.some(
          (entry) => (entry.fields as { alert?: string }).alert === 'key-custody-not-recorded',
        ),
      ).toBe(true);
      const retried = await get(`/api/orders/${fresh.orderId}/items`, { cookie: fresh.orderCookie });
      expect(((await retried.json()) as OrderItemView[])[0]?.licenseKeys).toEqual([fresh.key]);
      expect(await readEvents(store.eventStore, orderCustodyStream(fresh.orderId))).toHaveLength(1);
    });
  });

  describe('GET /api/license-keys/:keyId/history', () => {
    it('tells the key’s custody step by step, key masked, to admins and auditors', async () => {
      const sent = await recordDeliveryEmailSent(store.eventStore, order.orderId, {
        recipient: CUSTOMER,
        messageId: '<delivery-1@licensestore.local>',
      });
      expect(
        await waitForProjections(store.database.pool, sent.position ?? '', {
          projectors: ['key-history'],
          timeoutMs: 10_000,
        }),
      ).toBe(true);

      for (const cookie of [admin, auditor]) {
        const response = await get(`/api/license-keys/${keyId}/history`, { cookie });
        expect(response.status).toBe(200);
        const history = (await response.json()) as KeyHistoryView;
        expect(history).toMatchObject({ keyId, key: maskedKey(key), orderId: order.orderId });
        expect(JSON.stringify(history)).not.toContain(key);
        const kinds = history.entries.map((entry) => entry.kind);
        expect(kinds.slice(0, 2)).toEqual(['imported', 'assigned']);
        expect(kinds).toContain('delivered');
        const [imported] = history.entries;
        expect(imported?.details).toMatchObject({ batch: imported?.correlationId, batchSize: 4 });
        expect(imported?.actor.type).toBe('admin');
        expect(history.entries.find((entry) => entry.kind === 'delivered')?.details).toEqual({
          messageId: '<delivery-1@licensestore.local>',
          recipient: CUSTOMER,
        });
        const channels = history.entries
          .filter((entry) => entry.kind === 'revealed')
          .map((entry) => entry.details.channel);
        expect(new Set(channels)).toEqual(
          new Set(['confirmation-page', 'email-link', 'my-orders', 'admin-reveal']),
        );
      }
    });

    it('is for the back office only, and 404 for a key it never had', async () => {
      expect((await get(`/api/license-keys/${keyId}/history`)).status).toBe(401);
      expect((await get(`/api/license-keys/${keyId}/history`, { cookie: customer })).status).toBe(403);
      expect((await get(`/api/license-keys/${randomUUID()}/history`, { cookie: admin })).status).toBe(404);
      expect((await get('/api/license-keys/not-a-key/history', { cookie: admin })).status).toBe(404);
    });
  });
});
