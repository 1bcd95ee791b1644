import { randomUUID } from 'node:crypto';
import { type OrderItemView, orderStream } from '@licensestore/domain';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mailFiles } from '../../../test/support/mail.js';
import { addKeys } from '../../../workers/src/testing/store.js';
import { callApi } from './support/api.js';
import { readEvents } from './support/checkout.js';
import { type ObservedStore, startObservedStore } from './support/observed-store.js';
import { type Purchase, purchase } from './support/purchase.js';

const WAIT = { timeout: 20_000, interval: 100 };

/**
 * An admin sets a cancelled order back to pending or completed: the api, the projections and the workers together.
 * Its old keys stay revoked; it takes new ones from stock (or waits in line for them) and the buyer gets a second
 * delivery e-mail.
 */
describe('Reopening a cancelled order', () => {
  let store: ObservedStore;
  let url: string;
  let admin: string;

  const setStatus = (orderId: string, status: string) =>
    callApi(url, 'PATCH', `/api/orders/${orderId}/status`, { cookie: admin, body: { status } });
  const eventsOf = async (orderId: string, type: string) =>
    (await readEvents(store.eventStore, orderStream(orderId))).filter((event) => event.type === type);
  const keyIdsOf = async (orderId: string) =>
    (await eventsOf(orderId, 'OrderLicenceKeysAssigned')).flatMap((event) =>
      (event.data as { keys: Array<{ keyId: string }> }).keys.map((key) => key.keyId),
    );
  const deliveries = (orderId: string, count: number) =>
    vi.waitFor(async () => expect(await eventsOf(orderId, 'DeliveryEmailSent')).toHaveLength(count), WAIT);
  const mailsTo = async (email: string) =>
    [...(await mailFiles(store.mailDir)).values()].filter((mail) => mail.to.includes(email));
  const keyRow = (keyId: string) =>
    store.database.db
      .selectFrom('license_keys')
      .select(['status', 'order_id'])
      .where('id', '=', keyId)
      .executeTakeFirstOrThrow();
  const stockOf = (productId: string) =>
    store.database.db
      .selectFrom('license_key_stock')
      .select(['available', 'waiting'])
      .where('product_id', '=', productId)
      .executeTakeFirstOrThrow();
  const buyerItems = async (bought: Purchase) => {
    const response = await callApi(url, 'GET', `/api/orders/${bought.orderId}/items`, {
      cookie: bought.orderCookie,
    });
    expect(response.status).toBe(200);
    return (await response.json()) as OrderItemView[];
  };
  const buyer = () => {
    const email = `${randomUUID()}@example.com`;
    return { email, customer: { customerName: 'Ada Lovelace', customerEmail: email } };
  };
  /** A delivered purchase, then cancelled: its key revoked for good (it left the store in the e-mail). */
  const cancelledPurchase = async (
    productId: string,
    customer: { customerName: string; customerEmail: string },
  ) => {
    const bought = await purchase(url, productId, customer);
    await deliveries(bought.orderId, 1);
    const [oldKeyId] = (await keyIdsOf(bought.orderId)) as [string];
    expect((await setStatus(bought.orderId, 'cancelled')).status).toBe(200);
    await vi.waitFor(async () => expect((await keyRow(oldKeyId)).status).toBe('revoked'), WAIT);
    return { bought, oldKeyId };
  };

  beforeAll(async () => {
    store = await startObservedStore();
    url = store.api.url;
    admin = await store.api.sessionCookie({ kind: 'admin', subjectId: randomUUID() });
  });
  afterAll(async () => {
    await store?.stop();
  });

  describe('with keys in stock', () => {
    it('gives it a new key from stock and e-mails the buyer again; the revoked key never comes back', async () => {
      const productId = await store.productWithKeys(1, { name: 'Office Suite 2026' });
      const { email, customer } = buyer();
      const { bought, oldKeyId } = await cancelledPurchase(productId, customer);
      const [oldKey] = (await mailsTo(email)).flatMap((mail) => mail.text.match(/[0-9A-F-]{36}/g) ?? []);
      expect(oldKey).toMatch(/^[0-9A-F]{8}-/);
      const [newKey] = (await addKeys(store.eventStore, store.api.keyVault, productId, 1)) as [string];

      const reopened = await setStatus(bought.orderId, 'completed');
      expect(reopened.status, await reopened.clone().text()).toBe(200);
      expect(await reopened.json()).toMatchObject({ id: bought.orderId, status: 'completed' });

      await deliveries(bought.orderId, 2);
      const keyIds = await keyIdsOf(bought.orderId);
      expect(keyIds).toHaveLength(2);
      const newKeyId = keyIds[1] as string;
      expect(newKeyId).not.toBe(oldKeyId);
      expect(await keyRow(newKeyId)).toEqual({ status: 'assigned', order_id: bought.orderId });
      expect((await keyRow(oldKeyId)).status).toBe('revoked');

      const mails = await mailsTo(email);
      expect(mails).toHaveLength(2);
      const second = mails.find((mail) => mail.text.includes(newKey));
      expect(second?.text).toBeDefined();
      expect(second?.text).not.toContain(oldKey);
      const triggers = (await eventsOf(bought.orderId, 'DeliveryEmailSent')).map(
        (event) => (event.data as { trigger: string }).trigger,
      );
      expect(new Set(triggers).size).toBe(2);

      await vi.waitFor(async () => {
        const [item] = await buyerItems(bought);
        expect(item?.licenseKey).toBe(newKey);
        expect(item?.licenseKeys).toEqual([newKey]);
      }, WAIT);
    });
  });

  describe('with no keys in stock', () => {
    it('waits in line behind the orders that asked before it and is served when keys are imported', async () => {
      const productId = await store.productWithKeys(1, { name: 'Antivirus Pro' });
      const first = buyer();
      const { bought } = await cancelledPurchase(productId, first.customer);

      expect((await setStatus(bought.orderId, 'pending')).status).toBe(200);
      // Out of stock: its line waits, with no key shown.
      await vi.waitFor(
        async () => expect(await stockOf(productId)).toEqual({ available: 0, waiting: 1 }),
        WAIT,
      );
      const later = buyer();
      const next = await purchase(url, productId, later.customer);
      await vi.waitFor(async () => expect((await stockOf(productId)).waiting).toBe(2), WAIT);
      expect((await buyerItems(bought))[0]?.licenseKey ?? null).toBeNull();
      const waiting = await callApi(url, 'GET', `/api/orders/${bought.orderId}`, { cookie: admin });
      expect(await waiting.json()).toMatchObject({ deliveryEmailSentAt: null });

      const [imported] = (await addKeys(store.eventStore, store.api.keyVault, productId, 1)) as [string];
      await deliveries(bought.orderId, 2);
      expect((await mailsTo(first.email)).filter((mail) => mail.text.includes(imported))).toHaveLength(1);
      expect(await eventsOf(next.orderId, 'OrderLicenceKeysAssigned')).toEqual([]);

      // The status stays the one the admin chose: a paid order set to pending is served all the same.
      await vi.waitFor(async () => {
        const order = await callApi(url, 'GET', `/api/orders/${bought.orderId}`, { cookie: admin });
        expect(await order.json()).toMatchObject({
          status: 'pending',
          deliveryEmailSentAt: expect.any(String),
        });
      }, WAIT);
      await vi.waitFor(async () => expect((await buyerItems(bought))[0]?.licenseKey).toBe(imported), WAIT);
    });
  });

  describe('once its money went back', () => {
    it('answers 409 with the reason for a refunded order, and changes nothing', async () => {
      const productId = await store.productWithKeys(1);
      const bought = await purchase(url, productId, buyer().customer);
      await deliveries(bought.orderId, 1);
      const refund = await callApi(url, 'POST', `/api/orders/${bought.orderId}/refunds`, {
        cookie: admin,
        body: { all: true, reason: 'Bought by mistake' },
      });
      expect(refund.status, await refund.clone().text()).toBe(201);
      await vi.waitFor(async () => {
        const order = await callApi(url, 'GET', `/api/orders/${bought.orderId}`, { cookie: admin });
        expect(await order.json()).toMatchObject({ status: 'refunded' });
      }, WAIT);

      const answer = await setStatus(bought.orderId, 'completed');
      expect(answer.status).toBe(409);
      expect(await answer.json()).toEqual({
        error: expect.stringMatching(
          /is refunded: its license keys were released, so it cannot be reopened\.$/,
        ),
      });
      expect(await eventsOf(bought.orderId, 'OrderReopened')).toEqual([]);
    });
  });
});
