import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { orderNumber } from '@licensestore/domain/orders/order-number';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN_USERNAME, openAdminPage } from './support/admin.js';
import { purchasableProducts, purchase } from './support/purchases.js';
import { ADMIN_PASSWORD } from './support/store.js';
import { storeAndBrowserForThisFile } from './support/store-and-browser.js';

const e2e = storeAndBrowserForThisFile();

/** Another admin, elsewhere: signed in through the API, calling it as a browser on the store's origin would. */
async function adminElsewhere() {
  const origin = new URL(e2e.store.url).origin;
  const login = await fetch(new URL('/api/admin/login', e2e.store.url), {
    method: 'POST',
    headers: { origin, 'content-type': 'application/json' },
    body: JSON.stringify({ username: ADMIN_USERNAME, password: ADMIN_PASSWORD }),
  });
  const cookie = login.headers
    .getSetCookie()
    .find((header) => header.startsWith('sid='))
    ?.split(';')[0];
  if (!cookie) throw new Error(`sign-in failed: ${login.status}`);
  return {
    setStatus: async (orderId: string, status: string) => {
      const response = await fetch(new URL(`/api/orders/${orderId}/status`, e2e.store.url), {
        method: 'PATCH',
        headers: { origin, cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ status }),
      });
      expect(response.status).toBe(200);
    },
  };
}

/** Marks the loaded document: the mark is gone if the page reloads or navigates away. */
const markDocument = (page: Page) => page.evaluate(() => Object.assign(window, { stillThisDocument: true }));
const sameDocument = (page: Page) =>
  page.evaluate(() => (window as { stillThisDocument?: boolean }).stillThisDocument === true);

const card = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

describe('the live back office', () => {
  it('shows a new order on the dashboard by itself, without a reload', async () => {
    const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await card(page, 'Total Orders').getByText('0', { exact: true }).waitFor();
    await card(page, 'Recent Orders').getByText('No orders yet').waitFor();
    await markDocument(page);

    const [product] = await purchasableProducts(e2e.store.url);
    if (!product) throw new Error('no product in stock');
    await purchase(e2e.store.url, { name: 'Grace Hopper', email: 'grace@example.com' }, [
      { product, quantity: 1 },
    ]);

    await card(page, 'Total Orders').getByText('1', { exact: true }).waitFor();
    await card(page, 'Recent Orders').getByText('Grace Hopper').waitFor();
    await card(page, 'Total Customers').getByText('1', { exact: true }).waitFor();
    expect(await sameDocument(page)).toBe(true);
    await page.screenshot({ path: join(tmpdir(), 'admin-live-dashboard.png') });
    expect(errors).toEqual([]);
    await close();
  });

  it('shows a new order at the head of the Orders list by itself, without a reload', async () => {
    const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
    await page.goto('/admin/orders');
    const orders = page.getByRole('table', { name: 'Orders', exact: true });
    await page.locator('table[aria-label="Orders"][aria-busy="false"]').waitFor();
    const before = await orders.getByRole('link').count();
    await markDocument(page);

    const [product] = await purchasableProducts(e2e.store.url);
    if (!product) throw new Error('no product in stock');
    const order = await purchase(e2e.store.url, { name: 'Alan Turing', email: 'alan@example.net' }, [
      { product, quantity: 1 },
    ]);

    const link = orders.getByRole('link', { name: `Order ${orderNumber(order.id)}: details and history` });
    await link.waitFor();
    // Newest first: the new order heads the list, above every order it showed before.
    expect(await orders.locator('tbody tr').first().getByRole('link').textContent()).toBe(
      orderNumber(order.id),
    );
    expect(await orders.getByRole('link').count()).toBe(before + 1);
    expect(await sameDocument(page)).toBe(true);
    await page.screenshot({ path: join(tmpdir(), 'admin-live-orders.png') });
    expect(errors).toEqual([]);
    await close();
  });

  it("shows an order's status change made elsewhere on its open page, and in its timeline", async () => {
    const [product] = await purchasableProducts(e2e.store.url);
    if (!product) throw new Error('no product in stock');
    const order = await purchase(e2e.store.url, { name: 'Ada Lovelace', email: 'ada@example.com' }, [
      { product, quantity: 1 },
    ]);
    const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
    await page.goto(`/admin/orders/${order.id}`);
    await page.getByRole('heading', { name: `Order ${orderNumber(order.id)}`, level: 1 }).waitFor();
    const status = page
      .getByRole('region', { name: 'Order details' })
      .locator('xpath=//dt[normalize-space()="Status"]/following-sibling::dd[1]');
    await status.getByText(/^(processing|completed)$/).waitFor();
    const before = await status.textContent();
    await markDocument(page);

    await (await adminElsewhere()).setStatus(order.id, 'cancelled');

    await status.getByText('cancelled', { exact: true }).waitFor();
    await page
      .getByRole('list', { name: 'Order events, oldest first' })
      .getByText(`Status changed from ${before} to cancelled`)
      .waitFor();
    expect(await sameDocument(page)).toBe(true);
    await page.screenshot({ path: join(tmpdir(), 'admin-live-order.png'), fullPage: true });
    expect(errors).toEqual([]);
    await close();
  });
});
