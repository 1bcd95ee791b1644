// Faults of the store's outside world under a stream of purchases: PayPal answering too late, the mail server down
// or refusing. After each, the store must have lost and doubled nothing.

import { silentLogger } from '@licensestore/platform/logging';
import { verifyReadModels } from '@licensestore/projections/audit/verify';
import { describe, expect, it, vi } from 'vitest';
import { browserPost, buyerChooses, checkoutRequest } from '../../services/api/test/support/purchase.js';
import { type InProcessStore, startStoreWithMailServer } from '../support/in-process-store.js';
import { deliveriesByMessageId, type TestSmtpServer } from '../support/smtp-server.js';
import { checkStoreInvariants } from '../support/store-invariants.js';

const SHOPPERS = 3;
const ORDERS_EACH = 5;
/** Bounds every wait of a shopper, so a store that never recovers fails the test instead of hanging it. */
const RETRIES = { timeout: 30_000, interval: 200 };

/** What a browser's retry looks like to the store: the same step again, while the store says "try again later". */
const untilAnswered = (step: string, attempt: () => Promise<Response>, expected: number) =>
  vi.waitUntil(async () => {
    const response = await attempt();
    const text = await response.text();
    if (response.status >= 500) return null;
    if (response.status !== expected) throw new Error(`${step}: ${response.status} ${text}`);
    return JSON.parse(text) as { id: string };
  }, RETRIES);

/** One shopper's purchases through the api (PayPal's buyer window is the emulator's own, reached directly). */
async function shop(store: InProcessStore, productId: string, shopper: number) {
  const post = browserPost(store.api.url);
  for (let n = 0; n < ORDERS_EACH; n += 1) {
    const { id: paypalOrderId } = await untilAnswered(
      'create the PayPal order',
      () => post('/paypal/order', checkoutRequest(productId, '20.00')),
      201,
    );
    await buyerChooses(store.emulator.baseUrl, paypalOrderId);
    await untilAnswered(
      'capture',
      () =>
        post(`/paypal/order/${paypalOrderId}/capture`, {
          customerName: `Shopper ${shopper}`,
          customerEmail: `shopper-${shopper}@example.com`,
        }),
      200,
    );
  }
}

describe('Faults outside the store, under a stream of purchases', () => {
  /** Waits until every paid order is delivered, then checks the log, the mail received and the read models. */
  async function expectNothingLostOrDoubled(current: InProcessStore, server: TestSmtpServer) {
    const captured = current.capturedAtPaypal();
    expect(captured.length).toBe(SHOPPERS * ORDERS_EACH);
    await vi.waitFor(
      async () => {
        const state = await checkStoreInvariants(
          current.eventStore,
          deliveriesByMessageId(server.received),
          captured,
        );
        expect(state.problems).toEqual([]);
        expect(state.paidOrders).toBe(captured.length);
      },
      { timeout: 60_000, interval: 250 },
    );
    expect(server.received.length).toBe(captured.length);
    const report = await verifyReadModels({
      db: current.database.db,
      pool: current.database.pool,
      store: current.eventStore,
      log: silentLogger,
    });
    expect(report.mismatches).toEqual([]);
    expect(report.passed).toBe(true);
  }

  it('takes each payment once when PayPal answers too late: the retried capture or the webhook places the order', {
    timeout: 180_000,
  }, async () => {
    const { store, smtp } = await startStoreWithMailServer({ paypalTimeoutMs: 300, paypalRetries: 1 });
    const productId = await store.productWithKeys(SHOPPERS * ORDERS_EACH, { regularPrice: '20.00' });
    const shoppers = Promise.all(Array.from({ length: SHOPPERS }, (_, n) => shop(store, productId, n)));

    // PayPal does what it is asked but its answers are lost, until the answers to a few captures were.
    store.paypal.setMode({ kind: 'lose answers', to: /^POST \S+\/capture$/ });
    await vi.waitFor(() => expect(store.paypal.lostAnswers().length).toBeGreaterThanOrEqual(3), {
      timeout: 30_000,
      interval: 50,
    });
    store.paypal.setMode({ kind: 'pass' });
    await shoppers;

    await expectNothingLostOrDoubled(store, smtp);
  });

  it('delivers each e-mail exactly once when the mail server is down, then refuses, then is back', {
    timeout: 180_000,
  }, async () => {
    const { store, smtp } = await startStoreWithMailServer({}, { mailServerOpen: false });
    const productId = await store.productWithKeys(SHOPPERS * ORDERS_EACH, { regularPrice: '20.00' });
    const shoppers = Promise.all(Array.from({ length: SHOPPERS }, (_, n) => shop(store, productId, n)));

    // Closed (connection refused) while the first orders are delivered, then refusing messages (451) for a while.
    const deliveryAttempts = () =>
      store.eventStore
        .readAll(null, 10_000)
        .then((events) => events.filter((e) => e.type === 'OrderFulfilled'));
    await vi.waitFor(async () => expect((await deliveryAttempts()).length).toBeGreaterThanOrEqual(3), {
      timeout: 30_000,
      interval: 100,
    });
    smtp.refuse();
    await smtp.open();
    await smtp.until('a few messages refused', () => smtp.attempts() >= 3, 60_000);
    smtp.accept();
    await shoppers;

    await expectNothingLostOrDoubled(store, smtp);
  });
});
