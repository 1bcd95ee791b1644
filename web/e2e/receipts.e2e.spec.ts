import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Product } from '@licensestore/domain';
import type { Page } from 'playwright-core';
import { extractText, getDocumentProxy } from 'unpdf';
import { beforeAll, describe, expect, it } from 'vitest';
import { openAdminPage } from './support/admin.js';
import { openPage, PHONE, seriousA11yViolations } from './support/browser.js';
import { signInAsCustomer } from './support/customer-session.js';
import {
  holdOrderAccess,
  issuedReceiptNumber,
  type PlacedOrder,
  purchasableProducts,
  purchase,
} from './support/purchases.js';
import { storeAndBrowserForThisFile } from './support/store-and-browser.js';

const e2e = storeAndBrowserForThisFile();
let product: Product;
let order: PlacedOrder;
let receiptNumber: string;
const customer = { name: 'Grace Hopper', email: 'grace.receipts@example.com' };

beforeAll(async () => {
  [product] = (await purchasableProducts(e2e.store.url)) as [Product];
  order = await purchase(e2e.store.url, customer, [{ product, quantity: 2 }]);
  receiptNumber = await issuedReceiptNumber(e2e.store.url, order);
});

/** Clicks the receipt link and reads the PDF the browser downloaded. */
async function downloadReceipt(page: Page): Promise<string> {
  const link = page.getByRole('link', { name: `Download receipt ${receiptNumber}` });
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  expect(download.suggestedFilename()).toBe(`receipt-${receiptNumber}.pdf`);
  const bytes = await readFile((await download.path()) as string);
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  return (await extractText(pdf, { mergePages: true })).text;
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(tmpdir(), `${name}.png`), fullPage: true });

describe('the receipt', () => {
  it("downloads from the confirmation page of the browser that paid, the year's first number", async () => {
    expect(receiptNumber).toBe(`${new Date().getUTCFullYear()}-000001`);
    const { page, errors, close } = await openPage(e2e.browser, e2e.store.url, { acceptDownloads: true });
    await holdOrderAccess(page, e2e.store.url, order);
    await page.goto(`/order-confirmation/${order.id}`);
    const text = await downloadReceipt(page);
    for (const expected of [
      receiptNumber,
      product.name,
      'Grace Hopper',
      'LicenseStore Demo Ltd',
      'Net paid',
    ]) {
      expect(text).toContain(expected);
    }
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  });

  it("downloads from My Orders for the customer signed in with the order's address", async () => {
    const { page, errors, close } = await openPage(e2e.browser, e2e.store.url, { acceptDownloads: true });
    await signInAsCustomer(page.context(), e2e.store, customer.email);
    await page.goto('/account');
    expect(await downloadReceipt(page)).toContain(receiptNumber);
    expect(errors).toEqual([]);
    await close();
  });

  it("downloads from the admin's order page, which names it", async () => {
    const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
    await page.goto(`/admin/orders/${order.id}`);
    await page.getByRole('definition').filter({ hasText: receiptNumber }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: `Download receipt ${receiptNumber}` }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`receipt-${receiptNumber}.pdf`);
    expect(errors).toEqual([]);
    await close();
  });

  it('fits each page at desktop and phone widths, light and dark', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const [size, viewport] of [
        ['desktop', { width: 1366, height: 768 }],
        ['phone', PHONE],
      ] as const) {
        const { page, close } = await openPage(e2e.browser, e2e.store.url, { colorScheme, viewport });
        await page.addInitScript((theme) => localStorage.setItem('theme', theme), colorScheme);
        await holdOrderAccess(page, e2e.store.url, order);
        await page.goto(`/order-confirmation/${order.id}`);
        await page.getByRole('link', { name: `Download receipt ${receiptNumber}` }).waitFor();
        await shot(page, `receipt-confirmation-${size}-${colorScheme}`);
        await signInAsCustomer(page.context(), e2e.store, customer.email);
        await page.goto('/account');
        await page.getByRole('link', { name: `Download receipt ${receiptNumber}` }).waitFor();
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(
          true,
        );
        await shot(page, `receipt-account-${size}-${colorScheme}`);
        await close();
        const admin = await openAdminPage(e2e.browser, e2e.store.url, {
          colorScheme,
          phone: size === 'phone',
        });
        await admin.page.setViewportSize(viewport);
        await admin.page.goto(`/admin/orders/${order.id}`);
        await admin.page.getByRole('link', { name: `Download receipt ${receiptNumber}` }).waitFor();
        await shot(admin.page, `receipt-admin-${size}-${colorScheme}`);
        await admin.close();
      }
    }
  }, 240_000);
});
