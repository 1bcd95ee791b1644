import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type InProcessStore, startInProcessStore } from '../../../test/support/in-process-store.js';
import { browserPost, buyerChooses, checkoutRequest } from './support/purchase.js';

const CUSTOMER = { customerName: 'Ada Lovelace', customerEmail: 'ada@example.com' };
/** Long enough that the stop surely begins while PayPal's answer is on its way. */
const PAYPAL_ANSWERS_AFTER_MS = 1500;

describe('Stopping the api (SIGTERM)', () => {
  let store: InProcessStore;

  beforeAll(async () => {
    store = await startInProcessStore();
  });

  afterAll(async () => {
    await store?.stop();
  });

  it('finishes the capture in flight, refuses new connections, and closes the ones it answers', async () => {
    const productId = await store.productWithKeys(1, { regularPrice: '20.00' });
    // The buyer's browser: the capture carries the cookie that starting the checkout set.
    const post = browserPost(store.api.url);
    const created = await post('/paypal/order', checkoutRequest(productId, '20.00'));
    const { id: paypalOrderId } = (await created.json()) as { id: string };
    await buyerChooses(store.emulator.baseUrl, paypalOrderId);

    store.paypal.setMode({ kind: 'delay', ms: PAYPAL_ANSWERS_AFTER_MS });
    const capture = post(`/paypal/order/${paypalOrderId}/capture`, CUSTOMER);
    // PayPal has taken the money; its answer is on the way when the stop begins.
    await vi.waitFor(() => expect(store.capturedAtPaypal()).toContain(paypalOrderId), { interval: 20 });
    const stopped = store.api.stop();

    await expect(fetch(`${store.api.url}/healthz`)).rejects.toThrow();
    const answer = await capture;
    expect(answer.status).toBe(200);
    expect(answer.headers.get('connection')).toBe('close');
    const order = (await answer.json()) as { id: string; status: string };
    expect(order.status).toBe('processing');
    await stopped;
  });
});
