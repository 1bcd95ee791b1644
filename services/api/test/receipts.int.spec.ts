import { randomUUID } from 'node:crypto';
import { orderStream } from '@licensestore/domain';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mailFiles } from '../../../test/support/mail.js';
import { placeOrder } from '../../../workers/src/testing/store.js';
import { callApi } from './support/api.js';
import { type ObservedStore, startObservedStore } from './support/observed-store.js';
import { type Purchase, purchase } from './support/purchase.js';

const pdfText = async (response: Response) => {
  const pdf = await getDocumentProxy(new Uint8Array(await response.arrayBuffer()));
  return (await extractText(pdf, { mergePages: true })).text;
};

/**
 * The receipt PDF (GET /api/orders/:id/receipt.pdf): for whoever may read the order's keys, and for the holder of the
 * delivery e-mail's receipt link; issued once the order is paid and numbered from its year's receipts stream.
 */
describe('Receipts', () => {
  let store: ObservedStore;
  let url: string;
  let bought: Purchase;
  let receiptNumber: string;
  let admin: string;
  const buyer = { customerName: 'Zoë Müller', customerEmail: 'zoe@example.com' };
  const seller = {
    SELLER_NAME: 'Example Software Ltd',
    SELLER_ADDRESS: '1 Example Street;Springfield, IL 62701',
    SELLER_EMAIL: 'billing@example.com',
    SELLER_TAX_ID: 'US12-3456789',
  };
  const receiptPath = (orderId = bought.orderId) => `/api/orders/${orderId}/receipt.pdf`;
  const getReceipt = (cookie?: string, path = receiptPath()) => callApi(url, 'GET', path, { cookie });

  beforeAll(async () => {
    store = await startObservedStore({ env: seller });
    url = store.api.url;
    const productId = await store.productWithKeys(2, { name: 'Office Suite 2026' });
    bought = await purchase(url, productId, buyer);
    admin = await store.api.sessionCookie({ kind: 'admin', subjectId: randomUUID() });
    await vi.waitFor(
      async () => {
        const order = (await (await callApi(url, 'GET', `/api/orders/${bought.orderId}`)).json()) as {
          receiptNumber: string | null;
        };
        expect(order.receiptNumber).toMatch(/^\d{4}-\d{6}$/);
        receiptNumber = order.receiptNumber as string;
      },
      { timeout: 20_000, interval: 100 },
    );
  });
  afterAll(async () => {
    await store?.stop();
  });

  it("numbers a store's first paid order 000001 of the year it was paid in", () => {
    expect(receiptNumber).toBe(`${new Date().getUTCFullYear()}-000001`);
  });

  describe('for the paying browser', () => {
    it('downloads a PDF with the seller, the numbers, the PayPal capture, the customer, the lines and the totals', async () => {
      const response = await getReceipt(bought.orderCookie);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/pdf');
      expect(response.headers.get('content-disposition')).toBe(
        `attachment; filename="receipt-${receiptNumber}.pdf"`,
      );
      expect(response.headers.get('cache-control')).toBe('no-store');
      const text = await pdfText(response);
      const timeline = (await (
        await callApi(url, 'GET', `/api/orders/${bought.orderId}/timeline`, {
          cookie: admin,
        })
      ).json()) as Array<{ type: string; data: { captureId?: string } }>;
      const captureId = timeline.find((entry) => entry.type === 'OrderCaptured')?.data.captureId;
      expect(captureId).toMatch(/\w/);
      for (const expected of [
        'Receipt',
        'Example Software Ltd',
        '1 Example Street',
        'Springfield, IL 62701',
        'billing@example.com',
        'Tax ID: US12-3456789',
        receiptNumber,
        `#${bought.orderId.slice(0, 8).toUpperCase()}`,
        captureId as string,
        'Zoë Müller <zoe@example.com>',
        'Office Suite 2026',
        'Unit price',
        'Tax',
        '$0.00',
        'Total (USD)',
        '$100.00',
        'Net paid (USD)',
      ]) {
        expect(text).toContain(expected);
      }
      expect(text).not.toContain('Refund');
    });
  });

  describe('access', () => {
    it('is refused to a caller who knows only the order id, without the receipt', async () => {
      const response = await getReceipt();
      expect(response.status).toBe(403);
      const body = await response.text();
      expect(JSON.parse(body)).toEqual({ error: expect.stringContaining('link in the delivery e-mail') });
      expect(body).not.toContain(receiptNumber);
      expect(body).not.toContain('zoe@');
    });

    it("is given to admins, auditors and the customer signed in with the order's address, not to another", async () => {
      const auditor = await store.api.sessionCookie({ kind: 'auditor', subjectId: randomUUID() });
      const owner = await store.api.sessionCookie({ kind: 'customer', subjectId: 'ZOE@example.com' });
      const stranger = await store.api.sessionCookie({ kind: 'customer', subjectId: 'mallory@example.com' });
      for (const cookie of [admin, auditor, owner]) expect((await getReceipt(cookie)).status).toBe(200);
      expect((await getReceipt(stranger)).status).toBe(403);
    });

    it("opens with the e-mail's receipt token, which no other token replaces and which opens nothing else", async () => {
      const { orderAccess } = store.api;
      const withToken = (token: string, orderId = bought.orderId) =>
        getReceipt(undefined, `${receiptPath(orderId)}?token=${token}`);
      expect((await withToken(orderAccess.token('receipt', bought.orderId))).status).toBe(200);
      for (const purpose of ['order-link', 'order-cookie'] as const) {
        expect((await withToken(orderAccess.token(purpose, bought.orderId))).status).toBe(403);
      }
      expect((await withToken('not-a-token')).status).toBe(403);
      // The receipt token opens neither the keys nor another order's receipt.
      const items = await callApi(
        url,
        'GET',
        `/api/orders/${bought.orderId}/items?token=${orderAccess.token('receipt', bought.orderId)}`,
      );
      expect(JSON.stringify(await items.json())).not.toContain('licenseKey');
      const other = await placeOrder(store.eventStore, [{ productId: randomUUID() }]);
      expect((await withToken(orderAccess.token('receipt', bought.orderId), other)).status).toBe(403);
    });

    it('answers 404 for an unknown order and for an id that is no order id', async () => {
      expect((await getReceipt(admin, receiptPath(randomUUID()))).status).toBe(404);
      expect((await getReceipt(admin, receiptPath('not-an-id'))).status).toBe(404);
    });
  });

  it('is linked from the delivery e-mail, and the link downloads it', async () => {
    await vi.waitFor(async () => expect([...(await mailFiles(store.mailDir)).values()]).toHaveLength(1), {
      timeout: 20_000,
      interval: 100,
    });
    const [mail] = [...(await mailFiles(store.mailDir)).values()];
    const match =
      /Your receipt \(PDF\): (https:\/\/store\.test)(\/api\/orders\/[0-9a-f-]{36}\/receipt\.pdf\?token=[\w-]{43})/.exec(
        mail?.text ?? '',
      );
    expect(match?.[1]).toBe('https://store.test');
    const response = await getReceipt(undefined, match?.[2]);
    expect(response.status).toBe(200);
    expect(await pdfText(response)).toContain(receiptNumber);
  });

  it('answers 404 with a clear message while the payment is under review', async () => {
    const pending = await placeOrder(store.eventStore, [{ productId: randomUUID() }], {
      captureStatus: 'PENDING',
    });
    const response = await getReceipt(admin, receiptPath(pending));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: `Order #${pending.slice(0, 8).toUpperCase()} has no receipt yet: it is issued once the payment completes`,
    });
  });

  it('shows each refund PayPal completed, with its date, and the net paid', async () => {
    await store.eventStore.append(
      orderStream(bought.orderId),
      [
        {
          type: 'OrderRefundCompleted',
          data: {
            orderId: bought.orderId,
            refundId: null,
            paypalRefundId: 'REFUND-1',
            units: [],
            amount: '30.00',
            completedAt: '2026-11-20T12:00:00.000Z',
          },
          metadata: { actor: { type: 'system', id: 'test' }, correlationId: 'test', causationId: 'test' },
        },
      ],
      'any',
    );
    const text = await pdfText(await getReceipt(admin));
    expect(text).toContain('Refund, 20 November 2026');
    expect(text).toContain('-$30.00');
    expect(text).toMatch(/Net paid \(USD\)\s*\$70\.00/);
  });
});
