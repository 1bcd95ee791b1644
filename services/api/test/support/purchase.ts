/** A purchase as the paying browser holds it: the order, its PayPal order, and the cookies the browser got. */
export interface Purchase {
  orderId: string;
  paypalOrderId: string;
  /** `checkout_access=…`: the browser started this PayPal order. */
  checkoutCookie: string;
  /** `order_access=…`: the browser may read the order's license keys. */
  orderCookie: string;
}

/** What the checkout page sends to start a PayPal order: `quantity` units of one product, for `amount` in USD. */
export const checkoutRequest = (productId: string, amount: string, quantity = 1) => ({
  amount,
  currency: 'USD',
  intent: 'CAPTURE',
  items: [{ productId, quantity }],
});

/**
 * The buyer's choice on PayPal's approval page of `paypalOrderId`, as the emulator at `emulatorUrl` offers it
 * ('approve', or a choice that makes the capture fail); throws unless the emulator takes it.
 */
export async function buyerChooses(emulatorUrl: string, paypalOrderId: string, choice = 'approve') {
  const response = await fetch(`${emulatorUrl}/buyer/orders/${paypalOrderId}/approve`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ choice }),
  });
  if (response.status !== 200)
    throw new Error(`approve ${paypalOrderId}: ${response.status} ${await response.text()}`);
}

/** The `name=value` of a cookie the response sets; throws when it sets none. */
export function cookieSet(response: Response, name: string): string {
  const cookie = response.headers.getSetCookie().find((header) => header.startsWith(`${name}=`));
  if (!cookie) throw new Error(`no ${name} cookie in the response`);
  return cookie.split(';')[0] as string;
}

/**
 * A checkout through the API and the store's PayPal emulator, as the checkout page makes it, cookies included: the
 * capture carries the cookie that starting the PayPal order set. `headers` go with each request (e.g. an
 * X-Correlation-Id that the whole purchase shares).
 */
export async function purchase(
  url: string,
  productId: string,
  customer = { customerName: 'Ada Lovelace', customerEmail: 'ada@example.com' },
  headers: Record<string, string> = {},
): Promise<Purchase> {
  const post = async (path: string, body: unknown, status: number, cookie?: string) => {
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers, ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status !== status) throw new Error(`POST ${path}: ${response.status} ${text}`);
    return { response, body: JSON.parse(text) as { id: string } };
  };
  const started = await post('/paypal/order', checkoutRequest(productId, '100.00'), 201);
  const paypalOrderId = started.body.id;
  const checkoutCookie = cookieSet(started.response, 'checkout_access');
  await post(`/paypal-sandbox/buyer/orders/${paypalOrderId}/approve`, { choice: 'approve' }, 200);
  const captured = await post(`/paypal/order/${paypalOrderId}/capture`, customer, 200, checkoutCookie);
  return {
    orderId: captured.body.id,
    paypalOrderId,
    checkoutCookie,
    orderCookie: cookieSet(captured.response, 'order_access'),
  };
}

/**
 * POSTs JSON as one browser does: each request carries the cookies earlier answers set (by name; paths are not
 * told apart, so one browser follows one checkout at a time).
 */
export function browserPost(url: string) {
  const jar = new Map<string, string>();
  return async (path: string, body: unknown) => {
    const cookie = [...jar.values()].join('; ');
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    });
    for (const header of response.headers.getSetCookie()) {
      const pair = header.split(';')[0] as string;
      jar.set(pair.slice(0, pair.indexOf('=')), pair);
    }
    return response;
  };
}
