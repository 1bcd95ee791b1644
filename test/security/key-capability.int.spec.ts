import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import type { OrderItemView } from '@licensestore/domain';
import { maskedKey } from '@licensestore/domain/audit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { callApi, startTestApi, type TestApi } from '../../services/api/test/support/api.js';
import { type ObservedStore, startObservedStore } from '../../services/api/test/support/observed-store.js';
import { openStream } from '../../services/api/test/support/order-stream.js';
import { cookieSet, type Purchase, purchase } from '../../services/api/test/support/purchase.js';
import { mailFiles, orderLinkIn } from '../support/mail.js';

/**
 * Who reads a license key. The order id names an order and is no secret (logs, lists, URLs), so it opens the order
 * but not its keys: those go in clear to the paying browser (its cookie), the holder of the delivery e-mail's link,
 * and the customer signed in with the order's address; the back office sees them masked, and an admin opens one only
 * through its recorded reveal; anyone else sees none.
 */
describe('License keys behind a capability', () => {
  let store: ObservedStore;
  let url: string;
  let bought: Purchase;
  let key: string;
  let admin: string;
  const buyer = { customerName: 'Ada Lovelace', customerEmail: 'Ada@Example.com' };

  const get = (path: string, cookie?: string) => callApi(url, 'GET', path, { cookie });
  const itemsAs = async (cookie?: string, orderId = bought.orderId) => {
    const response = await get(`/api/orders/${orderId}/items`, cookie);
    expect(response.status).toBe(200);
    return (await response.json()) as OrderItemView[];
  };
  const firstSnapshotAs = async (cookie?: string) => {
    const stream = await openStream(`${url}/api/orders/${bought.orderId}/events`, cookie);
    expect(stream.response.status).toBe(200);
    try {
      return await stream.next();
    } finally {
      stream.leave();
    }
  };
  const withheld = (items: OrderItemView[]) =>
    items.map(({ id, productName, quantity, price, downloadUrl, installationNotes }) => ({
      id,
      productName,
      quantity,
      price,
      downloadUrl,
      installationNotes,
      keysWithheld: true,
    }));

  beforeAll(async () => {
    store = await startObservedStore();
    url = store.api.url;
    const productId = await store.productWithKeys(3);
    bought = await purchase(url, productId, buyer);
    admin = await store.api.sessionCookie({ kind: 'admin', subjectId: randomUUID() });
    // The delivery e-mail goes out once the key is on the order.
    await vi.waitFor(async () => expect([...(await mailFiles(store.mailDir)).values()]).toHaveLength(1), {
      timeout: 20_000,
      interval: 100,
    });
    const [line] = await itemsAs(admin);
    const revealed = await callApi(url, 'POST', `/api/license-keys/${line?.licenseKeyIds?.[0]}/reveal`, {
      cookie: admin,
    });
    key = ((await revealed.json()) as { licenseKey: string }).licenseKey;
    expect(key).toMatch(/\w/);
  });
  afterAll(async () => {
    await store?.stop();
  });

  describe('a caller who knows only the order id', () => {
    it('gets the order lines with no key field, marked as having keys withheld', async () => {
      const response = await get(`/api/orders/${bought.orderId}/items`);
      const text = await response.text();
      expect(text).not.toContain(key);
      const items = JSON.parse(text) as OrderItemView[];
      expect(items).toStrictEqual(withheld(items));
    });

    it('gets the order with the address masked to where the keys went', async () => {
      const response = await get(`/api/orders/${bought.orderId}`);
      expect(await response.json()).toMatchObject({
        id: bought.orderId,
        customerName: 'Ada Lovelace',
        customerEmail: 'A•••@Example.com',
      });
    });

    it('gets no key on the event stream either', async () => {
      const snapshot = await firstSnapshotAs();
      expect(JSON.stringify(snapshot)).not.toContain(key);
      expect(snapshot.items).toStrictEqual(withheld(snapshot.items));
      expect(snapshot.order.customerEmail).toBe('A•••@Example.com');
    });

    it('learns nothing when it captures the PayPal order again', async () => {
      const response = await callApi(url, 'POST', `/paypal/order/${bought.paypalOrderId}/capture`, {
        body: { customerName: 'Mallory Example', customerEmail: 'mallory@example.com' },
      });
      expect(response.status).toBe(403);
      expect(response.headers.getSetCookie()).toEqual([]);
      expect(JSON.stringify(await response.json())).not.toContain(bought.orderId);
    });

    it('gets no keys with the e-mail token sent as a cookie, nor with another order’s cookie', async () => {
      const linkToken = store.api.orderAccess.token('order-link', bought.orderId);
      expect(await itemsAs(`order_access=${linkToken}`)).toStrictEqual(withheld(await itemsAs()));
      const otherOrder = `order_access=${store.api.orderAccess.token('order-cookie', randomUUID())}`;
      expect(await itemsAs(otherOrder)).toStrictEqual(withheld(await itemsAs()));
    });
  });

  describe('the paying browser', () => {
    it('gets the keys with the cookie its capture set', async () => {
      const [line] = await itemsAs(bought.orderCookie);
      expect(line).toMatchObject({ licenseKey: key, licenseKeys: [key] });
      expect(line).not.toHaveProperty('keysWithheld');
      expect((await firstSnapshotAs(bought.orderCookie)).items[0]?.licenseKeys).toEqual([key]);
      const order = (await (await get(`/api/orders/${bought.orderId}`, bought.orderCookie)).json()) as {
        customerEmail: string;
      };
      expect(order.customerEmail).toBe(buyer.customerEmail);
    });

    it('gets the whole order and its cookie again on a retried capture', async () => {
      const response = await callApi(url, 'POST', `/paypal/order/${bought.paypalOrderId}/capture`, {
        cookie: bought.checkoutCookie,
        body: buyer,
      });
      expect(await response.json()).toMatchObject({ id: bought.orderId, customerEmail: buyer.customerEmail });
      expect(cookieSet(response, 'order_access')).toBe(bought.orderCookie);
      const [attributes] = response.headers.getSetCookie();
      expect(attributes).toContain(`Path=/api/orders/${bought.orderId};`);
      expect(attributes).toContain('HttpOnly');
      expect(attributes).toContain('SameSite=Strict');
    });
  });

  describe('the holder of the delivery e-mail', () => {
    it('trades the link’s token for the order’s cookie, which opens the keys', async () => {
      const [mail] = [...(await mailFiles(store.mailDir)).values()];
      const link = orderLinkIn(mail as Parameters<typeof orderLinkIn>[0]);
      expect(link.orderId).toBe(bought.orderId);
      const response = await callApi(url, 'POST', `/api/orders/${bought.orderId}/access`, {
        body: { token: link.token },
      });
      expect(response.status).toBe(204);
      const [line] = await itemsAs(cookieSet(response, 'order_access'));
      expect(line?.licenseKeys).toEqual([key]);
    });

    it('gets 403 with a message for a wrong token, or the token of another order', async () => {
      for (const token of [
        'x'.repeat(43),
        store.api.orderAccess.token('order-link', randomUUID()),
        store.api.orderAccess.token('order-cookie', bought.orderId),
      ]) {
        const response = await callApi(url, 'POST', `/api/orders/${bought.orderId}/access`, {
          body: { token },
        });
        expect(response.status).toBe(403);
        expect(response.headers.getSetCookie()).toEqual([]);
        expect(((await response.json()) as { error: string }).error).toMatch(/link/);
      }
    });
  });

  describe('signed-in customers and the back office', () => {
    it('opens the keys to the customer signed in with the order’s address, whatever its case', async () => {
      const owner = await store.api.sessionCookie({ kind: 'customer', subjectId: 'ada@example.com' });
      expect((await itemsAs(owner))[0]?.licenseKeys).toEqual([key]);
      expect((await firstSnapshotAs(owner)).items[0]?.licenseKeys).toEqual([key]);
    });

    it('withholds them from another customer', async () => {
      const other = await store.api.sessionCookie({ kind: 'customer', subjectId: 'grace@example.com' });
      expect(await itemsAs(other)).toStrictEqual(withheld(await itemsAs()));
    });

    it('masks them for admins, who open one on purpose through its recorded reveal (auditors cannot)', async () => {
      const masked = maskedKey(key);
      const [line] = await itemsAs(admin);
      expect(line?.licenseKeys).toEqual([masked]);
      expect((await firstSnapshotAs(admin)).items[0]?.licenseKeys).toEqual([masked]);
      const reveal = `/api/license-keys/${line?.licenseKeyIds?.[0]}/reveal`;
      const auditor = await store.api.sessionCookie({ kind: 'auditor', subjectId: randomUUID() });
      for (const cookie of [undefined, auditor, bought.orderCookie]) {
        expect((await callApi(url, 'POST', reveal, { cookie })).status).toBeGreaterThanOrEqual(401);
      }
      expect(await (await callApi(url, 'POST', reveal, { cookie: admin })).json()).toMatchObject({
        licenseKey: key,
      });
    });

    it('masks them for auditors on the items, the event stream and the timeline, even with the buyer’s cookie', async () => {
      const auditor = await store.api.sessionCookie({ kind: 'auditor', subjectId: randomUUID() });
      const masked = maskedKey(key);
      for (const cookie of [auditor, `${auditor}; ${bought.orderCookie}`]) {
        expect((await itemsAs(cookie))[0]).toMatchObject({ licenseKey: masked, licenseKeys: [masked] });
        expect((await firstSnapshotAs(cookie)).items[0]?.licenseKeys).toEqual([masked]);
      }
      const timeline = await get(`/api/orders/${bought.orderId}/timeline`, auditor);
      expect(timeline.status).toBe(200);
      const text = await timeline.text();
      expect(text).toContain(masked);
      expect(text).not.toContain(key);
    });
  });

  describe('event streams', () => {
    it('answers 429 with a message to a client over its share of open streams', async () => {
      const events = `${url}/api/orders/${bought.orderId}/events`;
      const open = await Promise.all(Array.from({ length: 10 }, () => openStream(events)));
      try {
        for (const stream of open) expect(stream.response.status).toBe(200);
        const refused = await fetch(events);
        expect(refused.status).toBe(429);
        expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
        expect(((await refused.json()) as { error: string }).error).toMatch(/Too many open order streams/);
      } finally {
        for (const stream of open) stream.leave();
      }
      // The slots come back as the streams close.
      await vi.waitFor(async () => {
        const again = await openStream(events);
        again.leave();
        expect(again.response.status).toBe(200);
      });
    });

    describe('with a client that stops reading', () => {
      let api: TestApi;
      beforeAll(async () => {
        api = await startTestApi({
          databaseUrl: store.databaseUrl,
          orderStreams: { perClient: 1, maxAgeMs: 1000, drainTimeoutMs: 500 },
        });
      });
      afterAll(async () => {
        await api?.stop();
      });

      it('ends its stream within the bound, so the socket and the slot come back', async () => {
        const { port } = new URL(api.url);
        const socket = connect(Number(port), '127.0.0.1');
        socket.on('error', () => {});
        await new Promise((resolve) => socket.once('connect', resolve));
        socket.write(`GET /api/orders/${bought.orderId}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
        // Never read: the socket's data stays unread in the kernel.
        socket.pause();
        const events = `${api.url}/api/orders/${bought.orderId}/events`;
        await vi.waitFor(async () => expect((await fetch(events)).status).toBe(429));
        const started = Date.now();
        await vi.waitFor(
          async () => {
            const stream = await openStream(events);
            stream.leave();
            expect(stream.response.status).toBe(200);
          },
          { timeout: 10_000, interval: 100 },
        );
        expect(Date.now() - started).toBeLessThan(5000);
        socket.destroy();
      });
    });
  });
});
