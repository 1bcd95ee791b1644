import { randomBytes } from 'node:crypto';
import type { Product } from '@licensestore/shared';
import { orderNumber } from '@licensestore/shared/orders/order-number';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAdminPage } from './support/admin.js';
import { PHONE, seriousA11yViolations, toastSaying } from './support/browser.js';
import { launchBrowser } from './support/chromium.js';
import { type PlacedOrder, purchasableProducts, purchase, waitForLicenceKeys } from './support/purchases.js';
import { startTestStore, type TestStore } from './support/store.js';

/** What `npm start` seeds: 20 keys for each of the 17 demo products on sale (the out-of-stock one has none). */
const DEMO_KEYS = 340;

let store: TestStore;
let browser: Browser;
let products: Product[];

beforeAll(async () => {
  [store, browser] = await Promise.all([startTestStore(), launchBrowser()]);
  products = await purchasableProducts(store.url);
});

afterAll(async () => {
  await browser?.close();
  await store?.stop();
});

/** Picks an option of a radix select (the Select primitive) by its trigger. */
async function choose(page: Page, trigger: Locator, option: string) {
  await trigger.click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** A key no other test run has. */
const freshKey = () => {
  const hex = randomBytes(10).toString('hex').toUpperCase();
  return [0, 4, 8, 12, 16].map((at) => `E2E${hex.slice(at, at + 4)}`).join('-');
};

const keysTable = (page: Page) => page.getByRole('table', { name: 'License keys' });
const stockOf = (page: Page, productName: string) =>
  page
    .getByRole('list', { name: 'Available keys per product' })
    .getByRole('listitem')
    .filter({ hasText: productName });

async function openKeysScreen(page: Page) {
  await page.goto('/admin/license-keys');
  await page.getByRole('heading', { level: 1, name: 'License Keys' }).waitFor();
  await keysTable(page)
    .getByRole('button', { name: /^Copy license key/ })
    .first()
    .waitFor();
}

describe('License Keys screen', () => {
  it('shows the texts, the stock per product above the table, and pages through the demo inventory', async () => {
    const { page, errors, close } = await openAdminPage(browser, store.url);
    await openKeysScreen(page);
    expect(await page.getByText('Manage product license keys inventory').isVisible()).toBe(true);
    expect(await keysTable(page).getByRole('columnheader').allTextContents()).toEqual([
      'Product',
      'License Key',
      'Status',
      'Order ID',
      'Actions',
    ]);
    const product = products[0] as Product;
    expect(await stockOf(page, product.name).textContent()).toMatch(/\d+ available/);

    await page.getByText(`Showing 1–25 of ${DEMO_KEYS} keys`).waitFor();
    expect(await keysTable(page).getByRole('row').count()).toBe(26);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText(`Showing 26–50 of ${DEMO_KEYS} keys`).waitFor();
    expect(await page.getByRole('button', { name: 'Previous' }).isEnabled()).toBe(true);

    // Filtered to one product: its 20 keys on one page, every row that product's.
    await choose(page, page.getByRole('combobox', { name: 'Product', exact: true }), product.name);
    await page.getByRole('navigation', { name: 'License key pages' }).waitFor({ state: 'detached' });
    const cells = await keysTable(page).locator('tbody tr td:first-child').allTextContents();
    expect(cells.length).toBeGreaterThan(0);
    expect(new Set(cells)).toEqual(new Set([product.name]));
    expect(errors).toEqual([]);
    await close();
  });

  it('shows the empty text when there are no keys, and skeleton rows while loading', async () => {
    const { page, close } = await openAdminPage(browser, store.url);
    let answer = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    await page.route(
      (url) => url.pathname === '/api/license-keys',
      async (route) => {
        await answered;
        await route.fulfill({ status: 200, contentType: 'application/json', body: '[]' });
      },
    );
    await page.goto('/admin/license-keys');
    await page.locator('table[aria-busy="true"] .animate-pulse').first().waitFor();
    answer();
    await page.getByText('No license keys yet. Add license keys to enable automatic delivery.').waitFor();
    await close();
  });

  it('adds a key (both fields required), copies it, then deletes it after the confirmation', async () => {
    const { page, errors, close } = await openAdminPage(browser, store.url);
    await openKeysScreen(page);
    const product = products[1] as Product;
    const before = Number((await stockOf(page, product.name).textContent())?.match(/(\d+) available/)?.[1]);

    await page.getByRole('button', { name: 'Add License Key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add License Key' });
    await dialog.waitFor();
    const productSelect = dialog.getByRole('combobox', { name: 'Product *' });
    expect(await productSelect.textContent()).toBe('Select a product');
    const keyInput = dialog.getByLabel('License Key *');
    expect(await keyInput.getAttribute('placeholder')).toBe('XXXXX-XXXXX-XXXXX-XXXXX-XXXXX');

    await dialog.getByRole('button', { name: 'Add License Key' }).click();
    await dialog.getByText('Please select a product').waitFor();
    expect(await dialog.getByText('Please enter a license key').isVisible()).toBe(true);

    const key = freshKey();
    await choose(page, productSelect, product.name);
    await keyInput.fill(key);
    await dialog.getByRole('button', { name: 'Add License Key' }).click();
    await toastSaying(page, 'License key added successfully');
    await dialog.waitFor({ state: 'detached' });

    // Newest first: the key heads the list, available, and the product's stock counts it.
    const row = keysTable(page).getByRole('row').filter({ hasText: key });
    await row.waitFor();
    expect(await row.getByRole('cell').nth(2).textContent()).toBe('Available');
    expect(await row.getByRole('cell').nth(3).textContent()).toBe('-');
    await stockOf(page, product.name)
      .getByText(`${before + 1} available`)
      .waitFor();

    await row.getByRole('button', { name: /^Copy license key/ }).click();
    await toastSaying(page, 'Copied!', 'License key copied to clipboard.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);

    // The same key again is refused, and the dialog says why.
    await page.getByRole('button', { name: 'Add License Key' }).click();
    await choose(page, dialog.getByRole('combobox', { name: 'Product *' }), product.name);
    await dialog.getByLabel('License Key *').fill(key);
    await dialog.getByRole('button', { name: 'Add License Key' }).click();
    await dialog.getByRole('alert').filter({ hasText: '409:' }).waitFor();
    await page.keyboard.press('Escape');

    const remove = row.getByRole('button', { name: /^Delete license key/ });
    await remove.click();
    const confirm = page.getByRole('alertdialog');
    await confirm
      .getByText('Are you sure you want to delete this license key? This action cannot be undone.')
      .waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await row.count()).toBe(1);

    await remove.click();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await toastSaying(page, 'License key deleted successfully');
    await row.waitFor({ state: 'detached' });
    await stockOf(page, product.name).getByText(`${before} available`).waitFor();
    expect(errors.filter((error) => !error.includes('409'))).toEqual([]);
    await close();
  });

  describe('an assigned key', () => {
    let order: PlacedOrder;
    let assignedKey: string;

    beforeAll(async () => {
      order = await purchase(store.url, { name: 'Ada Lovelace', email: 'ada@example.com' }, [
        { product: products[2] as Product, quantity: 1 },
      ]);
      const [item] = await waitForLicenceKeys(store.url, order);
      assignedKey = item?.licenseKeys[0] as string;
    });

    it('shows its order and cannot be deleted', async () => {
      const { page, errors, close } = await openAdminPage(browser, store.url);
      await openKeysScreen(page);
      await choose(page, page.getByRole('combobox', { name: 'Status', exact: true }), 'Assigned');
      // An order's key is masked in the inventory: it opens only through the order's recorded reveal.
      const row = keysTable(page)
        .getByRole('row')
        .filter({ hasText: `XXXXX-…-${assignedKey.slice(-4)}` });
      await row.waitFor();
      const cells = await row.getByRole('cell').allTextContents();
      expect(cells.slice(2)).toEqual(['Assigned', orderNumber(order.id), 'Assigned keys cannot be deleted']);
      expect(await row.getByRole('button', { name: /^Delete/ }).count()).toBe(0);
      const statuses = await keysTable(page).locator('tbody tr td:nth-child(3)').allTextContents();
      expect(new Set(statuses)).toEqual(new Set(['Assigned']));
      expect(errors).toEqual([]);
      await close();
    });
  });

  describe('bulk import', () => {
    it('adds pasted keys and lists the refused lines with their reasons', async () => {
      const { page, errors, close } = await openAdminPage(browser, store.url);
      await openKeysScreen(page);
      const product = products[3] as Product;
      const before = Number((await stockOf(page, product.name).textContent())?.match(/(\d+) available/)?.[1]);

      await page.getByRole('button', { name: 'Import Keys' }).click();
      const dialog = page.getByRole('dialog', { name: 'Import License Keys' });
      await dialog.waitFor();
      const [one, two] = [freshKey(), freshKey()];
      await choose(page, dialog.getByRole('combobox', { name: 'Product *' }), product.name);
      await dialog.getByLabel('License Keys *').fill(`${one}\n${two}\n${one}\n`);
      await dialog.getByRole('button', { name: 'Import' }).click();
      const outcome = dialog.getByRole('status');
      await outcome.getByText('2 license keys added').waitFor();
      expect(await outcome.textContent()).toContain('1 line refused');
      expect(await outcome.getByRole('list', { name: 'Refused lines' }).textContent()).toContain(
        'The same licence key as line 1',
      );
      await toastSaying(page, 'License keys imported', '2 added, 1 refused.');

      // The same keys again, from a file: nothing can be added, and each line says why.
      await dialog.getByLabel('Or read them from a file').setInputFiles({
        name: 'keys.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(`license key\n${one}\n${two}\n`),
      });
      // The file is read into the box, where the admin sees what will be sent.
      await page.waitForFunction(
        (key) => (document.getElementById('import-keys') as HTMLTextAreaElement).value.includes(key),
        one,
      );
      await dialog.getByRole('button', { name: 'Import' }).click();
      await outcome.getByText(/No licence key was added/).waitFor();
      expect(await outcome.getByRole('listitem').allTextContents()).toEqual([
        expect.stringMatching(/^Line 2 .*This licence key is already in the inventory$/),
        expect.stringMatching(/^Line 3 .*This licence key is already in the inventory$/),
      ]);

      // Behind the dialog the lists were refreshed (a modal hides them from the accessibility tree until it closes).
      await dialog.getByRole('button', { name: 'Done' }).click();
      await dialog.waitFor({ state: 'detached' });
      await stockOf(page, product.name)
        .getByText(`${before + 2} available`)
        .waitFor();
      expect(await keysTable(page).getByText(one).count()).toBe(1);
      // The all-refused import answers 400, which Chromium logs; nothing else may go wrong.
      expect(errors).toEqual([
        'Failed to load resource: the server responded with a status of 400 (Bad Request)',
      ]);
      await close();
    });
  });

  it('keeps the table inside a phone screen: it scrolls sideways, the page does not', async () => {
    const { page, close } = await openAdminPage(browser, store.url, { phone: true });
    await openKeysScreen(page);
    const widths = await page.evaluate(() => {
      const scroller = document.querySelector('table')?.parentElement as HTMLElement;
      return {
        page: document.documentElement.scrollWidth,
        table: scroller.scrollWidth,
        visible: scroller.clientWidth,
      };
    });
    expect(widths.page).toBe(PHONE.width);
    expect(widths.table).toBeGreaterThan(widths.visible);
    await close();
  });

  it('has no serious accessibility violations on the screen and its dialogs, in either theme', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const { page, close } = await openAdminPage(browser, store.url, { colorScheme });
      await openKeysScreen(page);
      const scan = async (what: string) =>
        expect({ what, colorScheme, violations: await seriousA11yViolations(page) }).toEqual({
          what,
          colorScheme,
          violations: [],
        });
      await scan('screen');
      await page.getByRole('button', { name: 'Add License Key' }).click();
      await page.getByRole('dialog', { name: 'Add License Key' }).waitFor();
      await scan('add dialog');
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Import Keys' }).click();
      await page.getByRole('dialog', { name: 'Import License Keys' }).waitFor();
      await scan('import dialog');
      await page.keyboard.press('Escape');
      await keysTable(page)
        .getByRole('button', { name: /^Delete license key/ })
        .first()
        .click();
      await page.getByRole('alertdialog').waitFor();
      await scan('delete confirmation');
      await close();
    }
  });
});
