import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKOUT_LIMITS } from '../../services/api/src/checkout/checkout-throttle.js';
import {
  type ApiWithReadModel,
  startApiWithReadModel,
} from '../../services/api/test/support/api-with-read-model.js';
import { buyerChooses, checkoutRequest, cookieSet } from '../../services/api/test/support/purchase.js';

describe('Checkouts from one client address', () => {
  let store: ApiWithReadModel;
  let productId: string;
  /** Each test asks from its own addresses (TRUST_PROXY=loopback), so the counters stay apart. */
  let clients = 0;
  const client = () => `203.0.113.${++clients}`;

  const createOrder = (address: string) =>
    fetch(`${store.api.url}/paypal/order`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
      body: JSON.stringify(checkoutRequest(productId, '100.00')),
    });

  const logHead = async () => {
    const { rows } = await store.database.pool.query<{ head: string | null }>(
      'SELECT max(global_position)::text AS head FROM event_store.events',
    );
    return rows[0]?.head ?? null;
  };

  beforeAll(async () => {
    // The limit the store runs with, not the one other test files raise for themselves.
    store = await startApiWithReadModel({
      env: { TRUST_PROXY: 'loopback' },
      checkoutLimits: CHECKOUT_LIMITS,
    });
    productId = await store.productWithKeys(1, { regularPrice: '100.00' });
  });
  afterAll(() => store?.stop());

  it(`creates ${CHECKOUT_LIMITS.orders.perClient} a minute, then answers 429 with Retry-After and creates nothing`, async () => {
    const address = client();
    for (let n = 0; n < CHECKOUT_LIMITS.orders.perClient; n++) {
      const response = await createOrder(address);
      expect(response.status, await response.text()).toBe(201);
    }
    const before = await logHead();
    const refused = await createOrder(address);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(CHECKOUT_LIMITS.orders.windowSeconds);
    const { error } = (await refused.json()) as { error: string };
    expect(error).toMatch(
      /^Too many checkouts were started from your connection in a short time\. Please wait \d+ seconds? and try again\.$/,
    );
    expect(await logHead()).toBe(before);
  });

  it('counts each address apart: another client still buys', async () => {
    const busy = client();
    for (let n = 0; n <= CHECKOUT_LIMITS.orders.perClient; n++) await createOrder(busy);
    expect((await createOrder(busy)).status).toBe(429);
    expect((await createOrder(client())).status).toBe(201);
  });

  it('counts a flood of parallel requests exactly: no more than the limit get through', async () => {
    const address = client();
    const answers = await Promise.all(
      Array.from(
        { length: CHECKOUT_LIMITS.orders.perClient + 10 },
        async () => (await createOrder(address)).status,
      ),
    );
    expect(answers.filter((status) => status === 201)).toHaveLength(CHECKOUT_LIMITS.orders.perClient);
    expect(answers.filter((status) => status === 429)).toHaveLength(10);
  });

  it(`counts ${CHECKOUT_LIMITS.captures.perClient} capture attempts a minute, refused or not, then answers 429 before looking at the checkout`, async () => {
    const capture = (paypalOrderId: string, address: string, cookie?: string) =>
      fetch(`${store.api.url}/paypal/order/${paypalOrderId}/capture`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-forwarded-for': address,
          ...(cookie ? { cookie } : {}),
        },
        body: JSON.stringify({ customerName: 'Ada Lovelace', customerEmail: 'ada@example.com' }),
      });
    const address = client();
    for (let n = 0; n < CHECKOUT_LIMITS.captures.perClient; n++) {
      expect((await capture(`GUESSED${n}`, address)).status).toBe(403);
    }
    const refused = await capture('GUESSED', address);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const { error } = (await refused.json()) as { error: string };
    expect(error).toMatch(
      /^Too many payments were attempted from your connection in a short time\. Please wait \d+ seconds? and try again\.$/,
    );
    // A buyer at another address still pays.
    const shopper = client();
    const started = await createOrder(shopper);
    const { id } = (await started.json()) as { id: string };
    const cookie = cookieSet(started, 'checkout_access');
    await buyerChooses(`${store.api.url}/paypal-sandbox`, id);
    expect((await capture(id, shopper, cookie)).status).toBe(200);
  });
});
