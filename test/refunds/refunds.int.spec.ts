// Refunds end to end: the admin's request, PayPal's answer or webhook, the order, the keys and the read models.
import { randomUUID } from 'node:crypto';
import type { BackOfficeOrderView, OrderItemView } from '@licensestore/domain';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readEvents } from '../../services/api/test/support/checkout.js';
import { browserPost, buyerChooses, checkoutRequest } from '../../services/api/test/support/purchase.js';
import { addKeys } from '../../workers/src/testing/store.js';
import { type InProcessStore, startInProcessStore } from '../support/in-process-store.js';

const WAIT = { timeout: 20_000, interval: 100 };

describe('Refunds', () => {
  let store: InProcessStore;
  let admin: string;
  let auditor: string;

  const call = async (method: string, path: string, cookie: string, body?: unknown) => {
    const response = await fetch(`${store.api.url}${path}`, {
      method,
      headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  };
  const refund = (orderId: string, body: unknown, cookie = admin) =>
    call('POST', `/api/orders/${orderId}/refunds`, cookie, body);
  const backOffice = async (orderId: string) =>
    (await call('GET', `/api/orders/${orderId}`, admin)).body as BackOfficeOrderView;

  /** An emulator call as PayPal's own dashboard (or its test controls) would make it. */
  const atPaypal = async (method: string, path: string, body?: unknown) => {
    const { sandbox } = store.emulator;
    const basic = `Basic ${Buffer.from(`${sandbox.clientId}:${sandbox.clientSecret}`).toString('base64')}`;
    let authorization = basic;
    if (path.startsWith('/v2/')) {
      const token = await fetch(`${store.emulator.baseUrl}/v1/oauth2/token`, {
        method: 'POST',
        headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials',
      });
      authorization = `Bearer ${((await token.json()) as { access_token: string }).access_token}`;
    }
    const response = await fetch(`${store.emulator.baseUrl}${path}`, {
      method,
      headers: { authorization, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.status).toBeLessThan(300);
    return response.json();
  };

  /** A purchase through the api, the buyer approving in PayPal's window; the order's id and its capture. */
  const buy = async (productId: string, quantity: number, email = 'ada@example.com') => {
    const browser = browserPost(store.api.url);
    const post = async (path: string, body: unknown) => {
      const response = await browser(path, body);
      expect(response.status, await response.clone().text()).toBeLessThan(300);
      return (await response.json()) as { id: string };
    };
    const { id: paypalOrderId } = await post(
      '/paypal/order',
      checkoutRequest(productId, `${quantity * 100}.00`, quantity),
    );
    await buyerChooses(store.emulator.baseUrl, paypalOrderId);
    const { id: orderId } = await post(`/paypal/order/${paypalOrderId}/capture`, {
      customerName: 'Ada Lovelace',
      customerEmail: email,
    });
    return orderId;
  };

  const orderEvents = (orderId: string) => readEvents(store.eventStore, `order-${orderId}`);
  const orderFacts = async (orderId: string) => {
    const events = await orderEvents(orderId);
    const data = (type: string) =>
      events.filter((event) => event.type === type).map((event) => event.data as Record<string, unknown>);
    const captured = data('OrderCaptured')[0] as { captureId: string; lines: Array<{ lineId: string }> };
    const keyIds = data('OrderLicenceKeysAssigned').flatMap((assigned) =>
      (assigned.keys as Array<{ keyId: string }>).map((key) => key.keyId),
    );
    return {
      events,
      data,
      captureId: captured.captureId,
      lineId: captured.lines[0]?.lineId as string,
      keyIds,
    };
  };
  const delivered = (orderId: string) =>
    vi.waitFor(async () => {
      expect((await orderFacts(orderId)).data('DeliveryEmailSent')).toHaveLength(1);
    }, WAIT);
  const keyRow = async (keyId: string) =>
    store.database.db
      .selectFrom('license_keys')
      .select(['status', 'order_id', 'returned_from'])
      .where('id', '=', keyId)
      .executeTakeFirst();
  const stock = async (productId: string) =>
    store.database.db
      .selectFrom('license_key_stock')
      .select(['available', 'assigned', 'revoked', 'waiting'])
      .where('product_id', '=', productId)
      .executeTakeFirstOrThrow();
  const productWithKeys = (keys: number) => store.productWithKeys(keys, { regularPrice: '100.00' });

  beforeAll(async () => {
    store = await startInProcessStore({ paypalTimeoutMs: 1_000, paypalRetries: 0 });
    admin = await store.api.sessionCookie({ kind: 'admin', subjectId: randomUUID() });
    auditor = await store.api.sessionCookie({ kind: 'auditor', subjectId: randomUUID() });
  });
  afterAll(() => store?.stop());

  describe('of one delivered unit', () => {
    it('revokes its key for good, leaves the stock as it was, and shows the customer the key as revoked', async () => {
      const productId = await productWithKeys(5);
      const orderId = await buy(productId, 2);
      await delivered(orderId);
      const { lineId, keyIds, captureId } = await orderFacts(orderId);
      const [revoked, kept] = keyIds as [string, string];
      const before = await stock(productId);

      const answer = await refund(orderId, { units: [{ lineId, keyId: revoked }], reason: 'Bought twice' });
      expect(answer.status).toBe(201);
      expect(answer.body).toMatchObject({ status: 'completed', amount: '100.00', reason: 'Bought twice' });

      await vi.waitFor(async () => expect(await keyRow(revoked)).toMatchObject({ status: 'revoked' }), WAIT);
      expect(await stock(productId)).toEqual({ ...before, assigned: before.assigned - 1, revoked: 1 });
      expect((await keyRow(kept))?.status).toBe('assigned');

      const customer = await store.api.sessionCookie({ kind: 'customer', subjectId: 'ada@example.com' });
      const [item] = (await call('GET', `/api/orders/${orderId}/items`, customer)).body as OrderItemView[];
      expect(item?.keyStatuses).toEqual(['revoked', 'valid']);
      expect(item?.refundedUnits).toBe(1);
      // The revoked key masked, never in clear as if valid; the valid one in clear.
      expect(item?.licenseKeys?.[0]).toMatch(/^X+-…-\w{4}$/);
      expect(item?.licenseKey).toBe(item?.licenseKeys?.[1]);
      expect(item?.licenseKey).not.toMatch(/…/);

      const order = await backOffice(orderId);
      expect(order).toMatchObject({ status: 'completed', refundedTotal: '100.00', netTotal: '100.00' });
      expect(order.refunds).toHaveLength(1);
      expect(order.refunds[0]).toMatchObject({ status: 'completed', units: [{ lineId, keyId: revoked }] });
      expect(store.emulator.sandbox.state.captures.get(captureId)?.capture.status).toBe('PARTIALLY_REFUNDED');

      // PayPal's webhook about the same refund changes nothing.
      await store.emulator.sandbox.idle();
      expect((await orderFacts(orderId)).data('OrderRefundCompleted')).toHaveLength(1);

      const whole = await refund(orderId, { all: true, reason: 'Customer left' });
      expect(whole.status).toBe(201);
      await vi.waitFor(async () => expect((await keyRow(kept))?.status).toBe('revoked'), WAIT);
      expect(await backOffice(orderId)).toMatchObject({ status: 'refunded', netTotal: '0.00' });
      expect(await refund(orderId, { all: true, reason: 'Again' })).toMatchObject({ status: 409 });
    });
  });

  describe('of a unit whose key never left the store', () => {
    it('returns the key to stock for the next waiting line, and takes the order out of the queue', async () => {
      const productId = await productWithKeys(1);
      const first = await buy(productId, 2, 'grace@example.com');
      const { lineId, keyIds } = await vi.waitFor(async () => {
        const facts = await orderFacts(first);
        expect(facts.keyIds).toHaveLength(1);
        return facts;
      }, WAIT);
      const second = await buy(productId, 1, 'linus@example.com');
      await vi.waitFor(
        async () => expect(await stock(productId)).toMatchObject({ available: 0, waiting: 2 }),
        WAIT,
      );

      const answer = await refund(first, { units: [{ lineId, keyId: keyIds[0] }], reason: 'Not needed' });
      expect(answer.status).toBe(201);
      // Back in stock, then handed to the next line in the queue, not back to the order it came from.
      await delivered(second);
      expect((await orderFacts(second)).keyIds).toEqual(keyIds);
      expect(await keyRow(keyIds[0] as string)).toMatchObject({ status: 'assigned', order_id: second });

      const rest = await refund(first, { units: [{ lineId, keyId: null }], reason: 'Not needed either' });
      expect(rest.status).toBe(201);
      await vi.waitFor(async () => expect(await stock(productId)).toMatchObject({ waiting: 0 }), WAIT);
      expect(await backOffice(first)).toMatchObject({ status: 'refunded', netTotal: '0.00' });
      await addKeys(store.eventStore, store.api.keyVault, productId, 1);
      await vi.waitFor(async () => expect(await stock(productId)).toMatchObject({ available: 1 }), WAIT);
      expect((await orderFacts(first)).data('DeliveryEmailSent')).toEqual([]);
    });
  });

  describe('refused by PayPal', () => {
    it('is recorded as failed with PayPal issue code, and its units can be refunded again', async () => {
      const productId = await productWithKeys(2);
      const orderId = await buy(productId, 1);
      await delivered(orderId);
      const { captureId, keyIds } = await orderFacts(orderId);
      await atPaypal('POST', `/simulate/captures/${captureId}/refund-failure`, {
        issue: 'REFUND_FAILED_INSUFFICIENT_FUNDS',
      });

      const refused = await refund(orderId, { all: true, reason: 'Broken download' });
      expect(refused.status).toBe(422);
      expect(refused.body.error).toContain('REFUND_FAILED_INSUFFICIENT_FUNDS');
      const order = await backOffice(orderId);
      expect(order).toMatchObject({ status: 'completed', refundedTotal: '0.00' });
      expect(order.refunds[0]).toMatchObject({
        status: 'failed',
        failureCode: 'REFUND_FAILED_INSUFFICIENT_FUNDS',
      });
      expect((await keyRow(keyIds[0] as string))?.status).toBe('assigned');

      // The failure was armed for one request: the next refund goes through.
      expect((await refund(orderId, { all: true, reason: 'Broken download' })).status).toBe(201);
    });
  });

  describe('whose answer PayPal never sends back', () => {
    it('completes by the webhook, and a retry with the same request id gets the same refund', async () => {
      const productId = await productWithKeys(2);
      const orderId = await buy(productId, 1);
      await delivered(orderId);
      const { captureId } = await orderFacts(orderId);

      store.paypal.setMode({ kind: 'lose answers', to: /\/refund$/ });
      const lost = await refund(orderId, { all: true, reason: 'Wrong edition' });
      store.paypal.setMode({ kind: 'pass' });
      expect(lost.status).toBe(502);
      const [requested] = (await backOffice(orderId)).refunds;
      expect(requested?.refundId).toBeTruthy();

      await vi.waitFor(
        async () => expect((await backOffice(orderId)).refunds[0]?.status).toBe('completed'),
        WAIT,
      );
      const retried = await call(
        'POST',
        `/api/orders/${orderId}/refunds/${requested?.refundId}/retry`,
        admin,
      );
      expect(retried.status).toBe(201);
      expect((await orderFacts(orderId)).data('OrderRefundCompleted')).toHaveLength(1);
      const atPaypalNow = [...store.emulator.sandbox.state.refunds.values()].filter(
        (ref) => ref.capture.id === captureId,
      );
      expect(atPaypalNow).toHaveLength(1);
      expect(await backOffice(orderId)).toMatchObject({ status: 'refunded' });
    });
  });

  describe("made in PayPal's own dashboard", () => {
    it('refunds the units the amount pays for, and records an amount no units make up as money only', async () => {
      const productId = await productWithKeys(2);
      const orderId = await buy(productId, 2);
      await delivered(orderId);
      const { captureId } = await orderFacts(orderId);

      await atPaypal('POST', `/simulate/captures/${captureId}/refund`, {
        amount: { currency_code: 'USD', value: '100.00' },
      });
      await vi.waitFor(async () => expect((await backOffice(orderId)).refundedTotal).toBe('100.00'), WAIT);
      const [unit] = (await backOffice(orderId)).refunds[0]?.units ?? [];
      expect(unit?.keyId).toBeTruthy();
      await vi.waitFor(
        async () => expect((await keyRow(unit?.keyId as string))?.status).toBe('revoked'),
        WAIT,
      );

      await atPaypal('POST', `/simulate/captures/${captureId}/refund`, {
        amount: { currency_code: 'USD', value: '5.00' },
      });
      await vi.waitFor(async () => expect((await backOffice(orderId)).netTotal).toBe('95.00'), WAIT);
      const order = await backOffice(orderId);
      expect(order.status).toBe('completed');
      expect(order.refunds.map((row) => [row.refundId, row.amount, row.units.length])).toEqual([
        [null, '100.00', 1],
        [null, '5.00', 0],
      ]);
      // What PayPal still holds caps the next refund: the last unit costs 100.00, 95.00 is left.
      const last = await refund(orderId, { all: true, reason: 'Closing the order' });
      expect(last.body).toMatchObject({ status: 'completed', amount: '95.00' });
    });
  });

  describe('when an order is cancelled', () => {
    it('revokes its delivered keys, takes a waiting order out of the queue, and serves it again once reopened', async () => {
      const productId = await productWithKeys(1);
      const deliveredOrder = await buy(productId, 1);
      await delivered(deliveredOrder);
      const [keyId] = (await orderFacts(deliveredOrder)).keyIds;
      const waiting = await buy(productId, 1);
      await vi.waitFor(async () => expect(await stock(productId)).toMatchObject({ waiting: 1 }), WAIT);

      for (const orderId of [deliveredOrder, waiting]) {
        const cancelled = await call('PATCH', `/api/orders/${orderId}/status`, admin, {
          status: 'cancelled',
        });
        expect(cancelled.status).toBe(200);
      }
      await vi.waitFor(async () => expect((await keyRow(keyId as string))?.status).toBe('revoked'), WAIT);
      await vi.waitFor(async () => expect(await stock(productId)).toMatchObject({ waiting: 0 }), WAIT);
      await addKeys(store.eventStore, store.api.keyVault, productId, 1);
      await vi.waitFor(async () => expect(await stock(productId)).toMatchObject({ available: 1 }), WAIT);
      // Reopened, the cancelled order that waited asks again and takes the key now in stock.
      const reopened = await call('PATCH', `/api/orders/${waiting}/status`, admin, { status: 'completed' });
      expect(reopened.status).toBe(200);
      await delivered(waiting);
      // The delivery is read from the log; the stock read model may still be catching up with it.
      await vi.waitFor(
        async () => expect(await stock(productId)).toMatchObject({ available: 0, waiting: 0 }),
        WAIT,
      );
    });
  });

  describe('asked wrongly', () => {
    it('refuses auditors, bad bodies and units the order does not have before any money moves', async () => {
      const productId = await productWithKeys(1);
      const orderId = await buy(productId, 1);
      await delivered(orderId);
      expect((await refund(orderId, { all: true, reason: 'x' }, auditor)).status).toBe(403);
      expect((await refund(orderId, { all: true })).status).toBe(400);
      expect((await refund(orderId, { all: true, reason: 'bad\u0000reason' })).status).toBe(400);
      expect((await refund(orderId, { units: [], reason: 'none' })).status).toBe(400);
      expect((await refund(orderId, { all: true, reason: 'x'.repeat(501) })).status).toBe(400);
      const unknown = await refund(orderId, { units: [{ lineId: 'nope', keyId: null }], reason: 'x' });
      expect(unknown.status).toBe(409);
      expect((await refund(randomUUID(), { all: true, reason: 'x' })).status).toBe(404);
      expect((await call('GET', `/api/orders/${orderId}/refunds`, auditor)).body).toEqual([]);
      expect(store.emulator.sandbox.state.refunds.size).toBeGreaterThan(0);
      const refundsBefore = store.emulator.sandbox.state.refunds.size;
      expect((await refund(orderId, { all: true, reason: '   ' })).status).toBe(400);
      expect(store.emulator.sandbox.state.refunds.size).toBe(refundsBefore);
    });
  });
});
