import type { Product } from '@licensestore/domain';
import { maskedKey } from '@licensestore/domain/audit';
import { orderNumber } from '@licensestore/domain/orders/order-number';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshLicenseKey } from '../../test/support/license-keys.js';
import { openAdminPage } from './support/admin.js';
import { PHONE, seriousA11yViolations, toastSaying } from './support/browser.js';
import { type PlacedOrder, purchasableProducts, purchase, waitForLicenseKeys } from './support/purchases.js';
import { storeAndBrowserForThisFile } from './support/store-and-browser.js';

const e2e = storeAndBrowserForThisFile();
let products: Product[];

beforeAll(async () => {
  products = await purchasableProducts(e2e.store.url);
});

/** Picks an option of a radix select (the Select primitive) by its trigger. */
async function choose(page: Page, trigger: Locator, option: string) {
  await trigger.click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

const keysTable = (page: Page) => page.getByRole('table', { name: 'License keys' });
/** A key as every list of the back office shows it: its last four characters. */
/** A masked key of any product's format: its first group as Xs, then its last four characters. */
const MASKED = /^X+-…-\w{4}$/;
const keyCells = (page: Page) => keysTable(page).locator('tbody tr td:nth-child(2) code').allTextContents();
/** The rows' keys by their history links: what tells one page from another. */
const rowIds = (page: Page) =>
  keysTable(page)
    .getByRole('link', { name: /^History of license key/ })
    .evaluateAll((links) => links.map((link) => link.getAttribute('href')));
const waitForRowsOtherThan = (page: Page, ids: Array<string | null>) =>
  page.waitForFunction(
    (before) =>
      [...document.querySelectorAll('table[aria-label="License keys"] a[href^="/admin/license-keys/"]')]
        .map((link) => link.getAttribute('href'))
        .join() !== before.join() &&
      document.querySelector('table[aria-label="License keys"]')?.getAttribute('aria-busy') === 'false',
    ids,
  );
const stockOf = (page: Page, productName: string) =>
  page
    .getByRole('list', { name: 'Available keys per product' })
    .getByRole('listitem')
    .filter({ hasText: productName });

async function openKeysScreen(page: Page) {
  await page.goto('/admin/license-keys');
  await keysShown(page);
}

async function keysShown(page: Page) {
  await page.getByRole('heading', { level: 1, name: 'License Keys' }).waitFor();
  await keysTable(page)
    .getByRole('button', { name: /^Copy license key/ })
    .first()
    .waitFor();
}

describe('License Keys screen', () => {
  it('shows the texts, the stock per product above the table, and every key masked', async () => {
    const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
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
    for (const key of await keyCells(page)) expect(key).toMatch(MASKED);
    expect(errors).toEqual([]);
    await close();
  });

  it('pages on the server, the page and filters in the URL: reload, back and a shared link show the same rows', async () => {
    const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
    await openKeysScreen(page);
    expect(await keysTable(page).getByRole('row').count()).toBe(26);
    const firstPage = await rowIds(page);
    expect(await page.getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL(/[?&]cursor=/);
    await waitForRowsOtherThan(page, firstPage);
    const secondPage = await rowIds(page);
    expect(secondPage.filter((id) => firstPage.includes(id))).toEqual([]);
    expect(await page.getByRole('button', { name: 'Previous' }).isEnabled()).toBe(true);

    // The URL is the page: a reload shows the same rows.
    await page.reload();
    await keysShown(page);
    expect(await rowIds(page)).toEqual(secondPage);
    await page.getByRole('button', { name: 'Previous' }).click();
    await waitForRowsOtherThan(page, secondPage);
    expect(await rowIds(page)).toEqual(firstPage);
    // The browser's back button returns to the page before.
    await page.goBack();
    await waitForRowsOtherThan(page, firstPage);
    expect(await rowIds(page)).toEqual(secondPage);

    // Filtered to one product: the filter goes into the URL, back to the first page; its 20 keys on one page.
    const product = products[0] as Product;
    await choose(page, page.getByRole('combobox', { name: 'Product', exact: true }), product.name);
    await page.waitForURL(
      (url) => url.searchParams.get('product') === product.id && !url.searchParams.has('cursor'),
    );
    await page.getByRole('navigation', { name: 'License key pages' }).waitFor({ state: 'detached' });
    const cells = await keysTable(page).locator('tbody tr td:first-child').allTextContents();
    expect(cells).toHaveLength(20);
    expect(new Set(cells)).toEqual(new Set([product.name]));

    // A link with the filters opens the screen filtered, the selects saying so.
    const shared = page.url();
    const other = await openAdminPage(e2e.browser, e2e.store.url);
    await other.page.goto(shared);
    await other.page.getByRole('heading', { level: 1, name: 'License Keys' }).waitFor();
    await other.page
      .getByRole('combobox', { name: 'Product', exact: true })
      .filter({ hasText: product.name })
      .waitFor();
    await keysTable(other.page).locator('tbody tr td:first-child').first().waitFor();
    expect(new Set(await keysTable(other.page).locator('tbody tr td:first-child').allTextContents())).toEqual(
      new Set([product.name]),
    );
    await other.close();

    await choose(page, page.getByRole('combobox', { name: 'Status', exact: true }), 'Assigned');
    await page.waitForURL((url) => url.searchParams.get('status') === 'assigned');
    await page.getByText('No license keys match these filters.').waitFor();
    expect(errors).toEqual([]);
    await close();
  });

  it('finds a key by the last characters its mask shows, searching the whole inventory on the server', async () => {
    const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
    await openKeysScreen(page);
    const firstPage = await rowIds(page);
    // A key the first page does not show: only the server's search can find it.
    await page.getByRole('button', { name: 'Next' }).click();
    await waitForRowsOtherThan(page, firstPage);
    const row = keysTable(page).locator('tbody tr').last();
    const wanted = await row.getByRole('link', { name: /^History of license key/ }).getAttribute('href');
    const tail = ((await row.locator('code').textContent()) as string).slice(-4);

    await openKeysScreen(page);
    expect(await rowIds(page)).not.toContain(wanted);
    const search = page.getByRole('searchbox', { name: 'Key ends with' });
    await search.fill(tail);
    await search.press('Enter');
    await page.waitForURL((url) => url.searchParams.get('q') === tail && !url.searchParams.has('cursor'));
    await waitForRowsOtherThan(page, firstPage);
    expect(await rowIds(page)).toContain(wanted);
    for (const key of await keyCells(page)) expect(key).toMatch(new RegExp(`^X+-…-${tail}$`));

    // The search is in the URL: a reload finds the same key, the box still holding the search.
    await page.reload();
    await keysShown(page);
    expect(await rowIds(page)).toContain(wanted);
    expect(await search.inputValue()).toBe(tail);
    await page.screenshot({ path: '/tmp/h-keys-search.png', fullPage: true });
    expect(errors).toEqual([]);
    await close();
  });

  it('shows the empty text when there are no keys, and skeleton rows while loading', async () => {
    const { page, close } = await openAdminPage(e2e.browser, e2e.store.url);
    let answer = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    await page.route(
      (url) => url.pathname === '/api/admin/license-keys',
      async (route) => {
        await answered;
        await route.fulfill({
          status: 200,
          contentType: 'application/json',
          body: JSON.stringify({ items: [], nextCursor: null, prevCursor: null }),
        });
      },
    );
    await page.goto('/admin/license-keys');
    await page.locator('table[aria-busy="true"] .animate-pulse').first().waitFor();
    answer();
    await page.getByText('No license keys yet. Add license keys to enable automatic delivery.').waitFor();
    await close();
  });

  it('adds a key (both fields required), shows it masked, reveals and copies it on purpose, then deletes it', async () => {
    const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
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

    const key = freshLicenseKey();
    await choose(page, productSelect, product.name);
    await keyInput.fill(key);
    await dialog.getByRole('button', { name: 'Add License Key' }).click();
    await toastSaying(page, 'License key added successfully');
    await dialog.waitFor({ state: 'detached' });

    // Newest first: the key heads the list, masked, available, and the product's stock counts it.
    const row = keysTable(page)
      .getByRole('row')
      .filter({ hasText: maskedKey(key) });
    await row.waitFor();
    expect(await keysTable(page).getByText(key).count()).toBe(0);
    expect(await row.getByRole('cell').nth(2).textContent()).toBe('Available');
    expect(await row.getByRole('cell').nth(3).textContent()).toBe('-');
    await stockOf(page, product.name)
      .getByText(`${before + 1} available`)
      .waitFor();

    // Copied on purpose: the key is fetched in clear (a recorded reveal) and never shown.
    await row.getByRole('button', { name: /^Copy license key/ }).click();
    await toastSaying(page, 'Copied!', 'License key copied to clipboard.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    expect(await row.getByText(key).count()).toBe(0);

    // Found by the last characters its mask shows: the search goes into the URL, and the key is the only row.
    await page.getByLabel('Key ends with').fill(key.slice(-4).toLowerCase());
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('q') === key.slice(-4).toLowerCase());
    await page.waitForFunction(
      () => document.querySelectorAll('table[aria-label="License keys"] tbody tr').length === 1,
    );
    expect(await keyCells(page)).toEqual([maskedKey(key)]);
    await page.getByLabel('Key ends with').fill('');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL((url) => !url.searchParams.has('q'));

    // The same key again is refused, and the dialog says why.
    await page.getByRole('button', { name: 'Add License Key' }).click();
    await choose(page, dialog.getByRole('combobox', { name: 'Product *' }), product.name);
    await dialog.getByLabel('License Key *').fill(key);
    await dialog.getByRole('button', { name: 'Add License Key' }).click();
    await dialog
      .getByRole('alert')
      .filter({ hasText: 'This license key is already in the inventory' })
      .waitFor();
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

  it("reveals a key on purpose, in its row only, and the showing is a step of the key's history", async () => {
    const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
    await openKeysScreen(page);
    const row = keysTable(page).locator('tbody tr').first();
    const shownMasked = (await row.locator('code').textContent()) as string;
    await row.getByRole('button', { name: /^Reveal license key/ }).click();
    await page.waitForFunction(
      (before) =>
        document.querySelector('table[aria-label="License keys"] tbody tr code')?.textContent !== before,
      shownMasked,
    );
    const clear = (await row.locator('code').textContent()) as string;
    expect(clear).not.toMatch(MASKED);
    expect(clear.slice(-4)).toBe(shownMasked.slice(-4));
    await row.getByRole('button', { name: /^Hide license key/ }).click();
    await row.getByText(shownMasked, { exact: true }).waitFor();

    await row.getByRole('link', { name: /^History of license key/ }).click();
    await page.getByText('Shown to admin in the back office', { exact: true }).waitFor();
    expect(await page.getByText(clear).count()).toBe(0);
    expect(errors).toEqual([]);
    await close();
  });

  describe('an assigned key', () => {
    let order: PlacedOrder;
    let assignedKey: string;

    beforeAll(async () => {
      order = await purchase(e2e.store.url, { name: 'Ada Lovelace', email: 'ada@example.com' }, [
        { product: products[2] as Product, quantity: 1 },
      ]);
      const [item] = await waitForLicenseKeys(e2e.store.url, order);
      assignedKey = item?.licenseKeys[0] as string;
    });

    it('shows its order and cannot be deleted', async () => {
      const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
      await openKeysScreen(page);
      await choose(page, page.getByRole('combobox', { name: 'Status', exact: true }), 'Assigned');
      // An order's key is masked in the inventory: it opens only through the order's recorded reveal.
      const row = keysTable(page)
        .getByRole('row')
        .filter({ hasText: maskedKey(assignedKey) });
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
    it('adds pasted keys, skips a repeated line and keys already in stock, and lists the skipped lines with their reasons', async () => {
      const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
      await openKeysScreen(page);
      const product = products[3] as Product;
      const before = Number((await stockOf(page, product.name).textContent())?.match(/(\d+) available/)?.[1]);

      await page.getByRole('button', { name: 'Import Keys' }).click();
      const dialog = page.getByRole('dialog', { name: 'Import License Keys' });
      await dialog.waitFor();
      const [one, two] = [freshLicenseKey(), freshLicenseKey()];
      await choose(page, dialog.getByRole('combobox', { name: 'Product *' }), product.name);
      await dialog.getByLabel('License Keys *').fill(`${one}\n${two}\n${one}\n`);
      await dialog.getByRole('button', { name: 'Import' }).click();
      // The toast first: it shows for five seconds, which the checks of the outcome may outlast on a loaded machine.
      await toastSaying(page, 'License keys imported', '2 license keys added; 1 repeated line, skipped.');
      const outcome = dialog.getByRole('status');
      await outcome.getByText('2 license keys added; 1 repeated line, skipped.').waitFor();
      expect(await outcome.getByRole('list', { name: 'Skipped lines' }).textContent()).toContain(
        'The same license key as line 1',
      );

      // The same keys again, from a file: they are in stock, so nothing new is added, and each line says why.
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
      await outcome.getByText('No new license key added; 2 already in stock, skipped.').waitFor();
      expect(
        await outcome.getByRole('list', { name: 'Skipped lines' }).getByRole('listitem').allTextContents(),
      ).toEqual([
        expect.stringMatching(/^Line 2 .*: Already in stock$/),
        expect.stringMatching(/^Line 3 .*: Already in stock$/),
      ]);

      // Behind the dialog the lists were refreshed (a modal hides them from the accessibility tree until it closes).
      await dialog.getByRole('button', { name: 'Done' }).click();
      await dialog.waitFor({ state: 'detached' });
      await stockOf(page, product.name)
        .getByText(`${before + 2} available`)
        .waitFor();
      expect(await keysTable(page).getByText(maskedKey(one)).count()).toBe(1);
      // Skipping keys in stock is an answer, not a refusal: no request failed.
      expect(errors).toEqual([]);
      await close();
    });
  });

  describe("the product's key format", () => {
    const DEFAULT_FORMAT = 'XXXXX-XXXXX-XXXXX-XXXXX-XXXXX';

    it('refuses a whole import with a line not in the format, naming the line in a sentence, and stores none of it', async () => {
      const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
      await openKeysScreen(page);
      const product = products[4] as Product;
      const before = Number((await stockOf(page, product.name).textContent())?.match(/(\d+) available/)?.[1]);

      await page.getByRole('button', { name: 'Import Keys' }).click();
      const dialog = page.getByRole('dialog', { name: 'Import License Keys' });
      await dialog.getByText(/All or nothing: if any line is not a key in the product's format/).waitFor();
      await choose(page, dialog.getByRole('combobox', { name: 'Product *' }), product.name);
      const box = dialog.getByLabel('License Keys *');
      expect(await box.getAttribute('placeholder')).toBe(`${DEFAULT_FORMAT}\n${DEFAULT_FORMAT}`);
      const [one, two] = [freshLicenseKey(), freshLicenseKey()];
      await box.fill(`${one}\n\nshort\n${two}`);
      await dialog.getByRole('button', { name: 'Import' }).click();

      const outcome = dialog.getByRole('status');
      await outcome
        .getByText(`Nothing was imported: line 3 is not a key in this product's format ${DEFAULT_FORMAT}`)
        .waitFor();
      expect(await outcome.getByRole('listitem').allTextContents()).toEqual([
        `Line 3 (*****): Not a key in this product's format ${DEFAULT_FORMAT}`,
      ]);

      await dialog.getByRole('button', { name: 'Done' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(await stockOf(page, product.name).textContent()).toContain(`${before} available`);
      const listed = await page.request.get(`/api/admin/license-keys?product=${product.id}&limit=100`);
      const masks = ((await listed.json()) as { items: Array<{ key: string }> }).items.map(
        (item) => item.key,
      );
      expect(masks).not.toContain(maskedKey(one));
      expect(masks).not.toContain(maskedKey(two));
      expect(errors).toEqual([
        'Failed to load resource: the server responded with a status of 400 (Bad Request)',
      ]);
      await close();
    });

    it("adds a key only in the product's own format, which the dialog shows once the product is chosen", async () => {
      const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
      const product = products[5] as Product;
      const changed = await page.request.patch(`/api/products/${product.id}`, {
        data: { keyFormat: 'XXXX-XXXX' },
      });
      expect(changed.status(), await changed.text()).toBe(200);
      await openKeysScreen(page);

      await page.getByRole('button', { name: 'Add License Key' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add License Key' });
      const keyInput = dialog.getByLabel('License Key *');
      expect(await keyInput.getAttribute('placeholder')).toBe(DEFAULT_FORMAT);
      await choose(page, dialog.getByRole('combobox', { name: 'Product *' }), product.name);
      expect(await keyInput.getAttribute('placeholder')).toBe('XXXX-XXXX');
      expect(
        await dialog.getByText('Format: XXXX-XXXX (X: an upper-case letter or a digit)').isVisible(),
      ).toBe(true);

      await keyInput.fill(freshLicenseKey());
      await dialog.getByRole('button', { name: 'Add License Key' }).click();
      await dialog
        .getByRole('alert')
        .getByText("This is not a key in this product's format XXXX-XXXX")
        .waitFor();

      await keyInput.fill('AB12-CD34');
      await dialog.getByRole('button', { name: 'Add License Key' }).click();
      await toastSaying(page, 'License key added successfully');
      expect(errors).toEqual([
        'Failed to load resource: the server responded with a status of 400 (Bad Request)',
      ]);
      await close();
    });
  });

  it('lists the newest key first by default', async () => {
    const { page, close } = await openAdminPage(e2e.browser, e2e.store.url);
    const product = products[6] as Product;
    const [older, newer] = [freshLicenseKey(), freshLicenseKey()];
    for (const key of [older, newer]) {
      const added = await page.request.post('/api/license-keys', { data: { productId: product.id, key } });
      expect(added.status(), await added.text()).toBe(201);
    }
    await openKeysScreen(page);
    const cells = await keyCells(page);
    expect(cells.slice(0, 2)).toEqual([maskedKey(newer), maskedKey(older)]);
    await close();
  });

  it('lists the keys as cards on a phone, and the page does not scroll sideways', async () => {
    const { page, close } = await openAdminPage(e2e.browser, e2e.store.url, { phone: true });
    await page.goto('/admin/license-keys');
    await page.getByRole('list', { name: 'License keys' }).getByRole('button').first().waitFor();
    expect(await page.getByRole('table').count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(PHONE.width);
    await close();
  });

  it('has no serious accessibility violations on the screen and its dialogs, in either theme', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const { page, close } = await openAdminPage(e2e.browser, e2e.store.url, { colorScheme });
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
