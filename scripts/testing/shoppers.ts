// Shoppers buying through a running store's front door over HTTP, as the checkout page does: create the PayPal
// order, approve it at the (emulated) PayPal, capture it. A step that fails without an answer, or with a 5xx (an
// instance killed mid-request, Postgres restarting), is tried again the way a browser's user would: the capture
// with the same PayPal order id, which the store captures once whatever the number of tries.
import { setTimeout as delay } from 'node:timers/promises';

export interface Product {
  id: string;
  price: string;
}

export interface Purchase {
  paypalOrderId: string;
  orderId: string;
  /** Steps that had to be tried again. */
  retries: number;
}

const RETRY_AFTER_MS = 250;
/** A purchase that has not gone through in this long fails the shopper (the store did not recover). */
const PURCHASE_DEADLINE_MS = 90_000;

/** The demo catalogue's products in stock, at the price the checkout page would send. */
export async function productsInStock(url: string): Promise<Product[]> {
  const response = await fetch(`${url}/api/products`);
  if (!response.ok) throw new Error(`GET /api/products: ${response.status}`);
  const products = (await response.json()) as Array<{
    id: string;
    inStock: boolean;
    regularPrice: string;
    salePrice: string | null;
  }>;
  return products.filter((p) => p.inStock).map((p) => ({ id: p.id, price: p.salePrice ?? p.regularPrice }));
}

let purchasesStarted = 0;

/**
 * The client address of the next purchase, from the range kept for benchmarks (198.18.0.0/15), sent as
 * X-Forwarded-For to a store that trusts its loopback proxy: each purchase is another shopper, as in a real shop, so
 * the per-address limit on checkouts, which one machine buying hundreds a minute would meet, leaves them alone.
 */
export function nextShopperAddress(): string {
  const n = purchasesStarted++;
  return `198.18.${(n >> 8) & 255}.${n & 255}`;
}

class RetryableError extends Error {}

interface Answer {
  body: Record<string, unknown>;
  /** The `name=value` of each cookie the answer sets. */
  cookies: string[];
}

/**
 * A shopper's POST from its own client address, carrying the cookie the store gave it, if any: the answer's status,
 * its body's text and the `name=value` of each cookie it sets.
 */
export async function shopperPost(
  url: string,
  body: unknown,
  from: { address: string; cookie?: string | undefined },
  signal?: AbortSignal,
) {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': from.address,
      ...(from.cookie ? { cookie: from.cookie } : {}),
    },
    body: JSON.stringify(body),
    signal: signal ?? null,
  });
  const text = await response.text();
  const cookies = response.headers.getSetCookie().map((header) => header.split(';')[0] as string);
  return { status: response.status, text, cookies };
}

/** A shopper's POST that answers `expected`; a failed connection or a 5xx may be retried, anything else may not. */
async function post(
  url: string,
  body: unknown,
  expected: number,
  from: { address: string; cookie?: string },
): Promise<Answer> {
  let answer: Awaited<ReturnType<typeof shopperPost>>;
  try {
    answer = await shopperPost(url, body, from, AbortSignal.timeout(30_000));
  } catch (error) {
    throw new RetryableError(`POST ${url}: ${error instanceof Error ? error.message : error}`);
  }
  const { status, text, cookies } = answer;
  if (status >= 500) throw new RetryableError(`POST ${url}: ${status} ${text}`);
  if (status !== expected) throw new Error(`POST ${url}: ${status} ${text}`);
  return { body: JSON.parse(text) as Record<string, unknown>, cookies };
}

/** One purchase of one unit of `product`; a 4xx fails it at once (the store refused something it should take). */
export async function purchase(url: string, product: Product, shopper: number): Promise<Purchase> {
  const deadline = Date.now() + PURCHASE_DEADLINE_MS;
  const address = nextShopperAddress();
  let retries = 0;
  const step = async <T>(what: () => Promise<T>): Promise<T> => {
    for (;;) {
      try {
        return await what();
      } catch (error) {
        if (!(error instanceof RetryableError) || Date.now() > deadline) throw error;
        retries++;
        await delay(RETRY_AFTER_MS);
      }
    }
  };
  // A create that got no answer is simply asked again: an abandoned PayPal order is never captured.
  const created = await step(() =>
    post(
      `${url}/paypal/order`,
      {
        amount: product.price,
        currency: 'USD',
        intent: 'CAPTURE',
        items: [{ productId: product.id, quantity: 1 }],
      },
      201,
      { address },
    ),
  );
  const paypalOrderId = String(created.body.id);
  // The browser keeps the cookie that marks it as this checkout's own: a retried capture gets the order again.
  const checkoutCookie = created.cookies.find((cookie) => cookie.startsWith('checkout_access='));
  await step(() =>
    post(`${url}/paypal-sandbox/buyer/orders/${paypalOrderId}/approve`, { choice: 'approve' }, 200, {
      address,
    }),
  );
  const order = await step(() =>
    post(
      `${url}/paypal/order/${paypalOrderId}/capture`,
      { customerName: `Shopper ${shopper}`, customerEmail: `shopper${shopper}@example.com` },
      200,
      { address, cookie: checkoutCookie },
    ),
  );
  return { paypalOrderId, orderId: String(order.body.id), retries };
}

export interface Shopping {
  /** Purchases completed so far. */
  readonly purchases: readonly Purchase[];
  /** Resolves once `count` purchases have completed in all; rejects if a shopper failed. */
  completed(count: number, timeoutMs: number): Promise<void>;
  /** Resolves once the shoppers have made the `limit` purchases; rejects with the first shopper's failure. */
  finished(): Promise<readonly Purchase[]>;
  /** Lets each shopper finish the purchase in hand; rejects with the first shopper's failure. */
  stop(): Promise<readonly Purchase[]>;
}

/** `shoppers` shoppers buying one after another until stopped or until `limit` purchases have been started. */
export function startShopping(
  url: string,
  products: readonly Product[],
  shoppers: number,
  limit = Infinity,
): Shopping {
  const purchases: Purchase[] = [];
  let started = 0;
  let stopping = false;
  let failure: unknown = null;
  const shopper = async (n: number) => {
    while (!stopping && failure === null && started < limit) {
      const product = products[started++ % products.length] as Product;
      try {
        purchases.push(await purchase(url, product, n));
      } catch (error) {
        failure ??= error;
      }
    }
  };
  const running = Promise.all(Array.from({ length: shoppers }, (_, n) => shopper(n + 1)));
  const finished = async () => {
    await running;
    if (failure !== null) throw failure;
    return purchases;
  };
  return {
    purchases,
    async completed(count, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (purchases.length < count) {
        if (failure !== null) throw failure;
        if (Date.now() > deadline)
          throw new Error(`${purchases.length} of ${count} purchases completed within ${timeoutMs} ms`);
        await delay(100);
      }
    },
    finished,
    stop() {
      stopping = true;
      return finished();
    },
  };
}
