// A PayPal order id is no secret: it shows in the audit log, in server logs, in PayPal's pages and on the buyer's
// screen. So knowing one must give nothing: only the browser that started the checkout (its `checkout_access`
// cookie) records the order and names its buyer. Anyone else polling the capture, before, during and after the
// buyer's approval, gets a refusal and changes nothing, at PayPal or in the log.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { callApi } from '../../services/api/test/support/api.js';
import { type ObservedStore, startObservedStore } from '../../services/api/test/support/observed-store.js';
import { checkoutRequest, cookieSet } from '../../services/api/test/support/purchase.js';
import { emulatorAccessToken } from '../../services/paypal-sandbox/test/support/sandbox.js';
import { mailFiles } from '../support/mail.js';

const BUYER = { customerName: 'Ada Lovelace', customerEmail: 'ada@example.com' };
const THIEF = { customerName: 'Mallory Example', customerEmail: 'mallory@example.com' };
const REFUSAL = 'Only the browser that started this checkout can complete it. Please pay from your own cart.';

interface Answer {
  status: number;
  body: string;
  cookies: string[];
}

describe('Capturing a PayPal order one did not start', () => {
  let store: ObservedStore;
  let url: string;
  let productId: string;

  const startCheckout = async () => {
    const response = await callApi(url, 'POST', '/paypal/order', {
      body: { ...checkoutRequest(productId, '100.00'), ...BUYER },
    });
    expect(response.status, await response.clone().text()).toBe(201);
    const { id } = (await response.json()) as { id: string };
    return { paypalOrderId: id, cookie: cookieSet(response, 'checkout_access') };
  };
  const approve = async (paypalOrderId: string) => {
    const response = await callApi(url, 'POST', `/paypal-sandbox/buyer/orders/${paypalOrderId}/approve`, {
      body: { choice: 'approve' },
    });
    expect(response.status).toBe(200);
  };
  const capture = async (paypalOrderId: string, body: unknown, cookie?: string): Promise<Answer> => {
    const response = await callApi(url, 'POST', `/paypal/order/${paypalOrderId}/capture`, { body, cookie });
    return { status: response.status, body: await response.text(), cookies: response.headers.getSetCookie() };
  };
  const paypalStatus = async (paypalOrderId: string) => {
    const emulator = `${url}/paypal-sandbox`;
    const response = await fetch(`${emulator}/v2/checkout/orders/${paypalOrderId}`, {
      headers: { authorization: `Bearer ${await emulatorAccessToken(emulator)}` },
    });
    return ((await response.json()) as { status: string }).status;
  };
  const eventsNaming = async (text: string) => {
    const { rows } = await store.database.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM event_store.events WHERE data::text ILIKE $1 OR metadata::text ILIKE $1`,
      [`%${text}%`],
    );
    return rows[0]?.n;
  };
  const logHead = async () => {
    const { rows } = await store.database.pool.query<{ head: string | null }>(
      'SELECT max(global_position)::text AS head FROM event_store.events',
    );
    return rows[0]?.head ?? null;
  };
  const expectRefused = (answers: Answer[]) => {
    for (const answer of answers) {
      expect(answer.status).toBe(403);
      expect(JSON.parse(answer.body)).toStrictEqual({ error: REFUSAL });
      expect(answer.cookies).toEqual([]);
    }
  };

  beforeAll(async () => {
    store = await startObservedStore();
    url = store.api.url;
    productId = await store.productWithKeys(3, { regularPrice: '100.00' });
  });
  afterAll(() => store?.stop());

  it('refuses a caller without the checkout’s cookie, before and after approval, leaving the order capturable', async () => {
    const { paypalOrderId, cookie } = await startCheckout();
    const head = await logHead();
    expectRefused([await capture(paypalOrderId, THIEF)]);
    await approve(paypalOrderId);
    // Another checkout's cookie is a capability for that checkout only.
    const own = await startCheckout();
    const afterOwn = await logHead();
    expectRefused([
      await capture(paypalOrderId, THIEF),
      await capture(paypalOrderId, THIEF, own.cookie),
      // A capability of another kind for the same PayPal order id is not this one.
      await capture(
        paypalOrderId,
        THIEF,
        `checkout_access=${store.api.orderAccess.token('order-cookie', paypalOrderId)}`,
      ),
    ]);
    expect(head).not.toBe(afterOwn);
    expect(await logHead()).toBe(afterOwn);
    expect(await paypalStatus(paypalOrderId)).toBe('APPROVED');
    const paid = await capture(paypalOrderId, BUYER, cookie);
    expect(paid.status).toBe(200);
    expect(JSON.parse(paid.body)).toMatchObject({ customerEmail: BUYER.customerEmail });
  });

  it('lets no order, key or e-mail reach an auditor polling the capture while the buyer approves', async () => {
    const { paypalOrderId, cookie } = await startCheckout();
    // As it was found: a signed-in auditor reads the PayPal order id off the audit log.
    const auditor = await store.api.sessionCookie({ kind: 'auditor', subjectId: randomUUID() });
    await vi.waitFor(async () => {
      const log = await callApi(url, 'GET', '/api/audit/events?type=CheckoutStarted', { cookie: auditor });
      expect(await log.text()).toContain(paypalOrderId);
    });
    const thiefAnswers: Answer[] = [];
    let polling = true;
    const poll = (async () => {
      while (polling) thiefAnswers.push(await capture(paypalOrderId, THIEF, auditor));
    })();
    let order: { id: string; customerName: string; customerEmail: string };
    try {
      await vi.waitFor(() => expect(thiefAnswers.length).toBeGreaterThan(3));
      await approve(paypalOrderId);
      const seenAtApproval = thiefAnswers.length;
      await vi.waitFor(() => expect(thiefAnswers.length).toBeGreaterThan(seenAtApproval + 3));
      const paid = await capture(paypalOrderId, BUYER, cookie);
      expect(paid.status, paid.body).toBe(200);
      order = JSON.parse(paid.body) as typeof order;
      expect(order).toMatchObject({ customerName: BUYER.customerName, customerEmail: BUYER.customerEmail });
      const seenAtCapture = thiefAnswers.length;
      await vi.waitFor(() => expect(thiefAnswers.length).toBeGreaterThan(seenAtCapture + 3));
    } finally {
      polling = false;
      await poll;
    }

    expectRefused(thiefAnswers);
    for (const answer of thiefAnswers) expect(answer.body).not.toContain(order.id);
    await vi.waitFor(
      async () => expect([...(await mailFiles(store.mailDir)).values()].length).toBeGreaterThan(0),
      { timeout: 20_000, interval: 100 },
    );
    const mails = [...(await mailFiles(store.mailDir)).values()];
    expect(mails.flatMap((mail) => mail.to)).not.toContain(THIEF.customerEmail);
    expect(await eventsNaming(THIEF.customerEmail)).toBe(0);
    expect(await eventsNaming(THIEF.customerName)).toBe(0);
  });
});
