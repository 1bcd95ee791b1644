import {
  formatCents,
  type OrderItemView,
  type OrderView,
  type Product,
  unitPriceCents,
} from '@licensestore/domain';
import type { Page } from 'playwright-core';
import { vi } from 'vitest';
import { mailFiles, type ReadMail } from '../../../test/support/mail.js';

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

/** The order as its paying browser holds it: the capture's answer and the cookie that opens its keys. */
export interface PlacedOrder extends OrderView {
  /** `order_access=…`, as the capture set it. */
  accessCookie: string;
}

/** An order line as a caller with access to the order reads it: its keys in clear. */
export type OpenedItem = OrderItemView & { licenseKeys: string[] };

async function answer(
  storeUrl: string,
  method: 'GET' | 'POST',
  path: string,
  { body, cookie, from }: { body?: unknown; cookie?: string; from?: string } = {},
): Promise<{ response: Response; text: string }> {
  const response = await fetch(new URL(path, storeUrl), {
    method,
    headers: {
      ...(cookie ? { cookie } : {}),
      // A client address of its own, for a store that trusts the proxy header (TRUST_PROXY).
      ...(from ? { 'x-forwarded-for': from } : {}),
      // The store refuses mutations whose Origin is not its own (cross-site protection): say we are the storefront.
      ...(body === undefined ? {} : { 'content-type': 'application/json', origin: new URL(storeUrl).origin }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return { response, text };
}

async function call<T>(storeUrl: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  return JSON.parse((await answer(storeUrl, method, path, { body })).text) as T;
}

/** The `name=value` of a cookie the response sets. */
function cookieSet(response: Response, name: string): string {
  const cookie = response.headers.getSetCookie().find((header) => header.startsWith(`${name}=`));
  if (!cookie) throw new Error(`no ${name} cookie in the answer to ${response.url}`);
  return cookie.split(';')[0] as string;
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
 * it, capture it with the customer's name and e-mail, cookies kept as a browser keeps them. Resolves with the placed
 * order and the cookie that opens its keys. `from`: the client address the store is told the buyer has.
 */
export async function purchase(
  storeUrl: string,
  customer: Customer,
  lines: PurchaseLine[],
  { from }: { from?: string } = {},
): Promise<PlacedOrder> {
  const amount = formatCents(
    lines.reduce((sum, line) => sum + unitPriceCents(line.product) * line.quantity, 0),
  );
  const started = await answer(storeUrl, 'POST', '/paypal/order', {
    from,
    body: {
      amount,
      currency: 'USD',
      intent: 'CAPTURE',
      items: lines.map((line) => ({ productId: line.product.id, quantity: line.quantity })),
    },
  });
  const { id: paypalOrderId } = JSON.parse(started.text) as { id: string };
  await call(storeUrl, 'POST', `/paypal-sandbox/buyer/orders/${paypalOrderId}/approve`, {
    choice: 'approve',
  });
  const captured = await answer(storeUrl, 'POST', `/paypal/order/${paypalOrderId}/capture`, {
    cookie: cookieSet(started.response, 'checkout_access'),
    body: {
      customerName: customer.name,
      customerEmail: customer.email,
      items: lines.map((line) => ({
        productId: line.product.id,
        productName: line.product.name,
        price: formatCents(unitPriceCents(line.product)),
        quantity: line.quantity,
      })),
    },
  });
  return {
    ...(JSON.parse(captured.text) as OrderView),
    accessCookie: cookieSet(captured.response, 'order_access'),
  };
}

/** Makes `page`'s browser the order's paying browser: it gets the order's access cookie as the capture set it. */
export async function holdOrderAccess(page: Page, storeUrl: string, order: PlacedOrder): Promise<void> {
  const [name, value] = order.accessCookie.split('=') as [string, string];
  await page.context().addCookies([
    {
      name,
      value,
      domain: new URL(storeUrl).hostname,
      path: `/api/orders/${order.id}`,
      httpOnly: true,
      sameSite: 'Strict',
    },
  ]);
}

/** The order's lines as its paying browser reads them. */
export const orderItems = async (storeUrl: string, order: PlacedOrder) =>
  JSON.parse(
    (await answer(storeUrl, 'GET', `/api/orders/${order.id}/items`, { cookie: order.accessCookie })).text,
  ) as OpenedItem[];

/** How long the workers get for what follows a capture (keys, receipt, delivery e-mail), asked again every 100 ms. */
const AFTER_CAPTURE = { timeout: 30_000, interval: 100 };

/** The order's items once the workers have assigned every unit its key. */
export const waitForLicenseKeys = (storeUrl: string, order: PlacedOrder): Promise<OpenedItem[]> =>
  vi.waitFor(async () => {
    const items = await orderItems(storeUrl, order);
    if (items.some((item) => item.licenseKeys.length !== item.quantity)) {
      throw new Error(`order ${order.id} has no keys for every unit yet: ${JSON.stringify(items)}`);
    }
    return items;
  }, AFTER_CAPTURE);

/** The order's receipt number, once the workers have issued it. */
export const issuedReceiptNumber = (storeUrl: string, order: Pick<OrderView, 'id'>): Promise<string> =>
  vi.waitFor(async () => {
    const { receiptNumber } = await call<OrderView>(storeUrl, 'GET', `/api/orders/${order.id}`);
    if (!receiptNumber) throw new Error(`order ${order.id} has no receipt yet`);
    return receiptNumber;
  }, AFTER_CAPTURE);

/** The delivery e-mail the workers sent to the address, read from the `.eml` files the store writes into `dataDir`. */
export const deliveryEmailTo = (dataDir: string, address: string): Promise<ReadMail> =>
  vi.waitFor(async () => {
    const delivery = [...(await mailFiles(dataDir)).values()].find(
      (mail) => mail.to.includes(address) && mail.subject.startsWith('Your license keys'),
    );
    if (!delivery) throw new Error(`no delivery e-mail to ${address} yet`);
    return delivery;
  }, AFTER_CAPTURE);
