import { randomUUID } from 'node:crypto';
import { clientAuthorization } from '@licensestore/paypal-sandbox/credentials';
import type { Product } from '@licensestore/shared';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, it } from 'vitest';
import { openPage } from './support/browser.js';
import { fillCard, fillCustomer, paypalButton, withCart } from './support/checkout-page.js';
import { launchBrowser } from './support/chromium.js';
import { signInAsCustomer } from './support/customer-session.js';
import { purchasableProducts, purchase, waitForLicenceKeys } from './support/purchases.js';
import { startTestStore, type TestStore } from './support/store.js';

let store: TestStore;
let browser: Browser;
let products: Product[];
const email = `shot-${randomUUID()}@example.com`;
let review = '';
let declined = '';

beforeAll(async () => {
  [store, browser] = await Promise.all([startTestStore(), launchBrowser()]);
  products = await purchasableProducts(store.url);
  const placed = await purchase(store.url, { name: 'Ada Lovelace', email }, [{ product: products[0] as Product, quantity: 2 }]);
  await waitForLicenceKeys(store.url, placed);
});
afterAll(async () => {
  await browser?.close();
  await store?.stop();
});

const VIEWS = [
  { name: 'desktop', viewport: { width: 1366, height: 768 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

async function pending(page: Page, product: Product) {
  await withCart(page, [{ product, quantity: 1 }]);
  await page.goto('/checkout');
  await fillCustomer(page, 'Ada Lovelace', email);
  let id = '';
  page.on('request', (r) => {
    const m = /\/paypal\/order\/([A-Z0-9]+)\/capture$/.exec(new URL(r.url()).pathname);
    if (m) id = m[1] as string;
  });
  await page.getByLabel('Sandbox buyer').selectOption('pending');
  await paypalButton(page).click();
  await page.waitForURL(/\/order-confirmation\//);
  await page.getByRole('heading', { name: 'Payment under review' }).waitFor();
  return { id, url: new URL(page.url()).pathname };
}

it('shoots', async () => {
  {
    const { page, close } = await openPage(browser, store.url);
    review = (await pending(page, products[1] as Product)).url;
    const d = await pending(page, products[2] as Product);
    await fetch(`${store.url}/paypal-sandbox/simulate/orders/${d.id}/deny?wait=true`, {
      method: 'POST',
      headers: { authorization: clientAuthorization() },
    });
    declined = d.url;
    await close();
  }
  for (const scheme of ['light', 'dark'] as const) {
    for (const view of VIEWS) {
      const tag = `${view.name}-${scheme}`;
      const { page, close } = await openPage(browser, store.url, { viewport: view.viewport, colorScheme: scheme });
      await page.addInitScript((theme) => localStorage.setItem('theme', theme), scheme);
      await signInAsCustomer(page.context(), store, email);
      await page.goto(review);
      await page.getByRole('heading', { name: 'Payment under review' }).waitFor();
      await page.screenshot({ path: `/tmp/states-shots/review-${tag}.png`, fullPage: true });
      await page.goto(declined);
      await page.getByRole('heading', { name: 'Payment declined' }).waitFor();
      await page.screenshot({ path: `/tmp/states-shots/declined-${tag}.png`, fullPage: true });
      await page.goto('/account');
      await page.getByRole('article').first().waitFor();
      await page.getByRole('button', { name: /^Copy license key/ }).first().click();
      await page.screenshot({ path: `/tmp/states-shots/account-${tag}.png`, fullPage: true });
      await withCart(page, [{ product: products[3] as Product, quantity: 1 }]);
      await page.goto('/checkout');
      await fillCustomer(page, 'Pat', 'pat@');
      await page.getByLabel('Full Name *').focus();
      await page.screenshot({ path: `/tmp/states-shots/email-${tag}.png`, fullPage: true });
      await page.getByLabel('Email Address *').fill('pat@example.com');
      await page.getByRole('tab', { name: 'Debit or Credit Card' }).click();
      await page.getByLabel('Card number').waitFor();
      await page.getByRole('button', { name: /^Pay / }).click();
      await page.getByText('Enter the card number').waitFor();
      await page.screenshot({ path: `/tmp/states-shots/cardfields-${tag}.png`, fullPage: true });
      await fillCard(page, '4000000000009995');
      await page.getByRole('button', { name: /^Pay / }).click();
      await page.getByRole('alert').filter({ hasText: 'Your card was declined' }).waitFor();
      await page.screenshot({ path: `/tmp/states-shots/decline-${tag}.png`, fullPage: true });
      await close();
    }
  }
}, 600_000);
