import {
  formatCents,
  type OrderItemView,
  type OrderView,
  type Product,
  unitPriceCents,
} from '@licensestore/shared';

/**
 * Purchases made through the store's HTTP API, as the checkout page makes them against the PayPal emulator: no
 * browser needed, so a test can start from a store that already has orders.
 */

export interface Customer {
  name: string;
  email: string;
}

export interface PurchaseLine {
  product: Product;
  quantity: number;
}

async function call<T>(storeUrl: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const response = await fetch(new URL(path, storeUrl), {
    method,
    // The store refuses mutations whose Origin is not its own (cross-site protection): say we are the storefront.
    headers:
      body === undefined ? {} : { 'content-type': 'application/json', origin: new URL(storeUrl).origin },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

export const listProducts = (storeUrl: string) => call<Product[]>(storeUrl, 'GET', '/api/products');

/** The products a purchase can be made of: in stock, cheapest first (stable across runs of the demo catalogue). */
export async function purchasableProducts(storeUrl: string): Promise<Product[]> {
  const products = await listProducts(storeUrl);
  return products
    .filter((product) => product.inStock)
    .sort((a, b) => unitPriceCents(a) - unitPriceCents(b) || a.name.localeCompare(b.name));
}

/**
 * Buys the lines as the checkout does: create the PayPal order for the cart's total, have the emulated buyer approve
 * it, capture it with the customer's name and e-mail. Resolves with the placed order.
 */
export async function purchase(
  storeUrl: string,
  customer: Customer,
  lines: PurchaseLine[],
): Promise<OrderView> {
  const amount = formatCents(
    lines.reduce((sum, line) => sum + unitPriceCents(line.product) * line.quantity, 0),
  );
  const { id: paypalOrderId } = await call<{ id: string }>(storeUrl, 'POST', '/paypal/order', {
    amount,
    currency: 'USD',
    intent: 'CAPTURE',
    items: lines.map((line) => ({ productId: line.product.id, quantity: line.quantity })),
  });
  await call(storeUrl, 'POST', `/paypal-sandbox/buyer/orders/${paypalOrderId}/approve`, {
    choice: 'approve',
  });
  return call<OrderView>(storeUrl, 'POST', `/paypal/order/${paypalOrderId}/capture`, {
    customerName: customer.name,
    customerEmail: customer.email,
    items: lines.map((line) => ({
      productId: line.product.id,
      productName: line.product.name,
      price: formatCents(unitPriceCents(line.product)),
      quantity: line.quantity,
    })),
  });
}

export const orderItems = (storeUrl: string, orderId: string) =>
  call<OrderItemView[]>(storeUrl, 'GET', `/api/orders/${orderId}/items`);

const POLL_MS = 100;

/**
 * The order's items once every unit has its key: the workers assign keys after the capture, so this asks again
 * (every 100 ms) until they have, or fails after `timeoutMs`.
 */
export async function waitForLicenceKeys(
  storeUrl: string,
  orderId: string,
  timeoutMs = 30_000,
): Promise<OrderItemView[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const items = await orderItems(storeUrl, orderId);
    if (items.every((item) => item.licenseKeys.length === item.quantity)) return items;
    if (Date.now() > deadline) {
      throw new Error(
        `order ${orderId} has no keys for every unit after ${timeoutMs} ms: ${JSON.stringify(items)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
