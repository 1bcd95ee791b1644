import { randomUUID } from 'node:crypto';
import type { DashboardView } from '@licensestore/domain';
import { clientAuthorization } from '@licensestore/paypal-sandbox/credentials';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openAdminPage } from './support/admin.js';
import { openPage } from './support/browser.js';
import { fillCustomer, paypalButton, withCart } from './support/checkout-page.js';
import { purchasableProducts } from './support/purchases.js';
import { storeAndBrowserForThisFile } from './support/store-and-browser.js';

const e2e = storeAndBrowserForThisFile();

/** Pays with the PayPal button, the sandbox buyer's payment held for review; answers PayPal's order id. */
async function payUnderReview(page: Page, email: string): Promise<string> {
  const [product] = await purchasableProducts(e2e.store.url);
  if (!product) throw new Error('the demo catalogue has no product in stock');
  await withCart(page, [{ product, quantity: 1 }]);
  await page.goto('/checkout');
  await fillCustomer(page, 'Barbara Liskov', email);
  const captured = page.waitForRequest((request) =>
    /\/paypal\/order\/[A-Z0-9]+\/capture$/.test(request.url()),
  );
  await page.getByLabel('Sandbox buyer').selectOption('pending');
  await paypalButton(page).click();
  const paypalOrderId = /\/paypal\/order\/([A-Z0-9]+)\/capture$/.exec((await captured).url())?.[1];
  await page.getByRole('heading', { name: 'Payment under review', level: 1 }).waitFor();
  return paypalOrderId as string;
}

/** What PayPal does when its review refuses the payment: the emulator denies the capture and sends the webhook. */
async function declineReview(paypalOrderId: string) {
  const response = await fetch(
    `${e2e.store.url}/paypal-sandbox/simulate/orders/${paypalOrderId}/deny?wait=true`,
    { method: 'POST', headers: { authorization: clientAuthorization() } },
  );
  expect(response.status).toBe(200);
}

const fetchJson = <T>(page: Page, path: string) =>
  page.evaluate(async (url) => (await fetch(url)).json(), path) as Promise<T>;

describe('a payment PayPal declined', () => {
  it('counts as no order and no customer, and its badge says "Payment declined"', async () => {
    const admin = await openAdminPage(e2e.browser, e2e.store.url);
    const shopper = await openPage(e2e.browser, e2e.store.url);
    try {
      const dashboard = () => fetchJson<DashboardView>(admin.page, '/api/admin/dashboard');
      const before = await dashboard();
      const email = `declined-${randomUUID().slice(0, 8)}@example.com`;
      const paypalOrderId = await payUnderReview(shopper.page, email);
      // Held for review, the money may still come: it counts until PayPal says no.
      await expect
        .poll(async () => (await dashboard()).totalOrders, { timeout: 10_000 })
        .toBe(before.totalOrders + 1);

      await declineReview(paypalOrderId);
      await expect
        .poll(async () => (await dashboard()).recentOrders.find((order) => order.customerEmail === email), {
          timeout: 10_000,
        })
        .toMatchObject({ status: 'cancelled', paymentDeclined: true });
      const after = await dashboard();
      expect([after.totalOrders, after.totalCustomers]).toEqual([before.totalOrders, before.totalCustomers]);
      const customers = await fetchJson<Array<{ email: string }>>(admin.page, '/api/customers');
      expect(customers.map((customer) => customer.email)).not.toContain(email);

      await admin.page.goto('/admin');
      const row = admin.page.locator('a[href^="/admin/orders/"]').filter({ hasText: email });
      await row.getByText('Payment declined', { exact: true }).waitFor();
      expect(await row.getByText('cancelled', { exact: true }).count()).toBe(0);
      expect(admin.errors).toEqual([]);
    } finally {
      await Promise.all([admin.close(), shopper.close()]);
    }
  });
});
