import type { Product } from '@licensestore/domain';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { openAdminPage, signInAsAdmin } from './support/admin.js';
import { openPage, PHONE, seriousA11yViolations, type TestPage, toastSaying } from './support/browser.js';
import { shownMoney } from './support/money.js';
import { holdOrderAccess, purchase, waitForLicenseKeys } from './support/purchases.js';
import { storeAndBrowserForThisFile } from './support/store-and-browser.js';

/** A real 2×2 blue PNG (valid CRCs), so the browser has something to decode in the previews. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEklEQVR4nGNQTX6tmvyaAUIBACWKBc28sHaMAAAAAElFTkSuQmCC',
  'base64',
);
const OBJECT_PATH = /^\/objects\/uploads\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const e2e = storeAndBrowserForThisFile();
let admin: TestPage;
let page: Page;
let demo: Product[];

const getJson = async <T>(path: string): Promise<T> =>
  (await fetch(new URL(path, e2e.store.url))).json() as Promise<T>;

// The spec's rule written out again from its text: dollars with two decimals.

const productRow = (name: string) =>
  page.getByRole('row').filter({ has: page.getByText(name, { exact: true }) });

async function setTheme(target: Page, theme: 'light' | 'dark') {
  await target.evaluate((value) => localStorage.setItem('theme', value), theme);
  await target.reload();
  await target.getByRole('heading', { name: 'Products', exact: true }).waitFor();
  await target
    .getByRole('button', { name: /^Edit / })
    .first()
    .waitFor();
}

async function openAddDialog() {
  await page.getByRole('button', { name: 'Add Product' }).click();
  await page.getByRole('dialog', { name: 'Add New Product' }).waitFor();
}

beforeAll(async () => {
  demo = await getJson<Product[]>('/api/products');
  admin = await openPage(e2e.browser, e2e.store.url);
  page = admin.page;
  await signInAsAdmin(page);
  await page.goto('/admin/products');
  await page
    .getByRole('button', { name: /^Edit / })
    .first()
    .waitFor();
});

describe('Admin Products', () => {
  it('shows the title, the columns and every product of the demo catalogue', async () => {
    await page.getByRole('heading', { name: 'Products', exact: true }).waitFor();
    await page.getByText('Manage your product catalog').waitFor();
    const headers = await page.getByRole('columnheader').allTextContents();
    expect(headers).toEqual(['Product', 'Category', 'Platform', 'Price', 'Status', 'Actions']);
    expect(demo).toHaveLength(18);
    expect(await page.getByRole('button', { name: /^Edit / }).count()).toBe(18);

    for (const product of demo) {
      const row = productRow(product.name);
      const cells = await row.getByRole('cell').allTextContents();
      expect(cells[1], product.name).toBe(product.category);
      expect(cells[2], product.name).toBe(product.platform);
      const struck = await row.locator('s').allTextContents();
      if (product.salePrice) {
        expect(cells[3], product.name).toContain(shownMoney(product.salePrice));
        expect(struck.map((text) => text.replace('regular price', '').trim())).toEqual([
          shownMoney(product.regularPrice),
        ]);
      } else {
        expect(cells[3], product.name).toBe(shownMoney(product.regularPrice));
        expect(struck).toEqual([]);
      }
      expect(cells[4], product.name).toBe(product.inStock ? 'In Stock' : 'Out of Stock');
      expect(cells[0]?.includes('Featured'), product.name).toBe(product.featured);
      await row.getByRole('button', { name: `Edit ${product.name}` }).waitFor();
      await row.getByRole('button', { name: `Delete ${product.name}` }).waitFor();
    }
    expect(demo.filter((product) => !product.inStock)).toHaveLength(1);
    expect(await page.getByText('Out of Stock', { exact: true }).count()).toBe(1);
    expect(demo.some((product) => product.salePrice)).toBe(true);
  });

  it('lists the products as cards on a phone instead of squeezing a table', async () => {
    await page.setViewportSize(PHONE);
    const cards = page.getByRole('list', { name: 'Products' }).getByRole('listitem');
    await cards.first().waitFor();
    expect(await cards.count()).toBe(demo.length);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('refuses a product with required fields missing, naming each', async () => {
    await openAddDialog();
    await page.getByText('Create a new product in your catalog').waitFor();
    let posted = false;
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/products')) posted = true;
    });
    await page.getByRole('button', { name: 'Create Product' }).click();
    for (const message of [
      'Product name is required',
      'Category is required',
      'Description is required',
      'Regular price is required',
      'Platform is required',
      'Image URL is required',
    ]) {
      await page.getByText(message).waitFor();
    }
    expect(await page.getByLabel('Product Name *').getAttribute('aria-invalid')).toBe('true');
    // The keyboard is taken to the first field to fix.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('product-name');
    expect(posted).toBe(false);
  });

  it('has no serious accessibility problems in the dialog, with its errors, in light and dark', async () => {
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    for (const theme of ['dark', 'light'] as const) {
      await setTheme(page, theme);
      expect(await seriousA11yViolations(page), `table, ${theme}`).toEqual([]);
      await openAddDialog();
      await page.getByRole('button', { name: 'Create Product' }).click();
      await page.getByText('Product name is required').waitFor();
      expect(await seriousA11yViolations(page), `dialog, ${theme}`).toEqual([]);
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
    }
  });

  describe('a product added with an uploaded image', () => {
    const name = `E2E Studio ${Date.now()}`;
    let objectPath: string;
    let created: Product;

    it('uploads the picked image, fills in the Image URL and shows a preview', async () => {
      await openAddDialog();
      await page.locator('.uppy-Dashboard-input').first().setInputFiles({
        name: 'cover.png',
        mimeType: 'image/png',
        buffer: PNG,
      });
      await page.getByRole('button', { name: 'Upload Image' }).click();
      await toastSaying(page, 'Image uploaded successfully');
      objectPath = await page.getByLabel('Image URL *').inputValue();
      expect(objectPath).toMatch(OBJECT_PATH);
      const preview = page.getByRole('img', { name: /^Preview/ });
      await preview.waitFor();
      expect(await preview.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBe(
        2,
      );
      expect(await page.getByRole('button', { name: 'Upload Image' }).isDisabled()).toBe(true);
    });

    it('shows what the server refuses', async () => {
      await page.getByLabel('Product Name *').fill('x'.repeat(201));
      await page.getByLabel('Category *').fill('Creative');
      await page.getByLabel('Platform *').fill('Windows / Mac');
      await page.getByLabel('Description *').fill('Edit photos and video.');
      await page.getByLabel('Regular Price *').fill('89.99');
      await page.getByLabel('Sale Price (optional)').fill('59.5');
      await page.getByRole('checkbox', { name: 'Featured' }).check();
      await page.getByRole('button', { name: 'Create Product' }).click();
      const alert = page.getByRole('dialog').getByRole('alert');
      await alert.waitFor();
      expect(await alert.textContent()).not.toContain('400');
      expect(await alert.textContent()).toContain('name: must be at most 200 characters');
    });

    it('creates it, with prices sent as strings, and lists it', async () => {
      await page.getByLabel('Product Name *').fill(name);
      await page.getByRole('button', { name: 'Create Product' }).click();
      await toastSaying(page, 'Product created successfully');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      const row = productRow(name);
      await row.waitFor();
      expect(await row.locator('s').textContent()).toContain('$89.99');
      expect(await row.getByRole('cell').nth(3).textContent()).toContain('$59.50');
      expect(await row.getByText('Featured').count()).toBe(1);
      expect(await row.locator('img').getAttribute('src')).toBe(objectPath);

      const listed = (await getJson<Product[]>('/api/products')).find((product) => product.name === name);
      expect(listed).toMatchObject({
        category: 'Creative',
        platform: 'Windows / Mac',
        regularPrice: '89.99',
        salePrice: '59.50',
        imageUrl: objectPath,
        featured: true,
        inStock: true,
      });
      created = listed as Product;
    });

    it('appears on the storefront with the uploaded image served from /objects/uploads', async () => {
      const shopper = await openPage(e2e.browser, e2e.store.url);
      try {
        await shopper.page.goto('/products');
        const card = shopper.page.getByRole('link').filter({ hasText: name }).first();
        await card.waitFor();
        await card.click();
        await shopper.page.waitForURL((url) => url.pathname === `/product/${created.id}`);
        await shopper.page.getByRole('heading', { name, level: 1 }).waitFor();
        const image = shopper.page.locator(`img[src="${objectPath}"]`).first();
        await image.waitFor();
        await expect
          .poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth))
          .toBe(2);
        const served = await shopper.page.request.get(objectPath);
        expect(served.headers()['content-type']).toBe('image/png');
        expect(served.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(Buffer.from(await served.body())).toEqual(PNG);
        expect(shopper.errors).toEqual([]);
      } finally {
        await shopper.close();
      }
    });

    it('edits it: an emptied sale price is sent as null and the storefront shows the regular price', async () => {
      await productRow(name)
        .getByRole('button', { name: `Edit ${name}` })
        .click();
      const dialog = page.getByRole('dialog', { name: 'Edit Product' });
      await dialog.waitFor();
      await dialog.getByText('Update product details').waitFor();
      expect(await page.getByLabel('Product Name *').inputValue()).toBe(name);
      expect(await page.getByLabel('Sale Price (optional)').inputValue()).toBe('59.50');
      expect(await page.getByLabel('Image URL *').inputValue()).toBe(objectPath);
      await page.getByLabel('Sale Price (optional)').fill('');
      const patch = page.waitForRequest((request) => request.method() === 'PATCH');
      await page.getByRole('button', { name: 'Update Product' }).click();
      expect((await patch).postDataJSON()).toMatchObject({ salePrice: null, regularPrice: '89.99' });
      await toastSaying(page, 'Product updated successfully');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      const row = productRow(name);
      await row.getByText('$89.99', { exact: true }).waitFor();
      expect(await row.locator('s').count()).toBe(0);
      expect((await getJson<Product>(`/api/products/${created.id}`)).salePrice).toBeNull();

      const shopper = await openPage(e2e.browser, e2e.store.url);
      try {
        await shopper.page.goto(`/product/${created.id}`);
        await shopper.page.getByRole('heading', { name, level: 1 }).waitFor();
        await shopper.page.getByText('$89.99').first().waitFor();
        expect(await shopper.page.getByText(/Save \d+%/).count()).toBe(0);
        expect(await shopper.page.getByText('$59.50').count()).toBe(0);
      } finally {
        await shopper.close();
      }
    });

    it('deletes it after asking for confirmation', async () => {
      await productRow(name)
        .getByRole('button', { name: `Delete ${name}` })
        .click();
      const confirm = page.getByRole('alertdialog');
      await confirm.waitFor();
      expect(await confirm.textContent()).toContain('Are you sure you want to delete this product?');
      expect(await seriousA11yViolations(page)).toEqual([]);
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await toastSaying(page, 'Product deleted successfully');
      await productRow(name).waitFor({ state: 'detached' });
      expect((await fetch(new URL(`/api/products/${created.id}`, e2e.store.url))).status).toBe(404);
      expect(await page.getByRole('button', { name: /^Edit / }).count()).toBe(18);
    });
  });

  describe("a product's official download", () => {
    const url = 'https://www.norton.com/setup?lang=en';
    const notes =
      'Sign in at norton.com/setup with your Norton account.\nEnter the product key, then download Norton.';
    let norton: Product;

    beforeAll(() => {
      norton = demo.find((product) => product.name === 'Norton 360 Deluxe') as Product;
    });

    it('is edited in the product form: https only, with multi-line notes', async () => {
      expect(norton.downloadUrl).toBe('https://www.norton.com/setup');
      await productRow(norton.name)
        .getByRole('button', { name: `Edit ${norton.name}` })
        .click();
      await page.getByRole('dialog', { name: 'Edit Product' }).waitFor();
      const downloadUrl = page.getByLabel('Download URL (optional)');
      expect(await downloadUrl.inputValue()).toBe('https://www.norton.com/setup');
      expect(await page.getByLabel('Installation Notes (optional)').inputValue()).toBe(
        norton.installationNotes,
      );

      await downloadUrl.fill('http://www.norton.com/setup');
      await page.getByRole('button', { name: 'Update Product' }).click();
      await page.getByText('Download URL must start with https:// (not http:)').waitFor();
      expect(await downloadUrl.getAttribute('aria-invalid')).toBe('true');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('product-downloadUrl');

      await downloadUrl.fill(url);
      await page.getByLabel('Installation Notes (optional)').fill(notes);
      const patch = page.waitForRequest((request) => request.method() === 'PATCH');
      await page.getByRole('button', { name: 'Update Product' }).click();
      expect((await patch).postDataJSON()).toMatchObject({ downloadUrl: url, installationNotes: notes });
      await toastSaying(page, 'Product updated successfully');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      expect(await getJson<Product>(`/api/products/${norton.id}`)).toMatchObject({
        downloadUrl: url,
        installationNotes: notes,
      });
    });

    it("is linked, with its notes, from the order's confirmation page", async () => {
      const order = await purchase(e2e.store.url, { name: 'Ada Lovelace', email: 'ada@example.com' }, [
        { product: { ...norton, downloadUrl: url, installationNotes: notes }, quantity: 1 },
      ]);
      await waitForLicenseKeys(e2e.store.url, order);
      const shopper = await openPage(e2e.browser, e2e.store.url);
      try {
        await holdOrderAccess(shopper.page, e2e.store.url, order);
        await shopper.page.goto(`/order-confirmation/${order.id}`);
        const link = shopper.page.getByRole('link', { name: /Download the official installer/ });
        await link.waitFor();
        expect(await link.getAttribute('href')).toBe(url);
        expect(await link.getAttribute('target')).toBe('_blank');
        expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
        await shopper.page
          .getByText('Sign in at norton.com/setup with your Norton account.', { exact: false })
          .waitFor();
        // innerText, not textContent: the notes' line breaks must show as line breaks on the page.
        const shown = await shopper.page
          .getByText(/Enter the product key, then download Norton\./)
          .innerText();
        expect(shown.split('\n')).toEqual(notes.split('\n'));
        await shopper.page
          .getByText('Follow the links in the email to download the official installer.')
          .waitFor();
        expect(await seriousA11yViolations(shopper.page)).toEqual([]);
        expect(shopper.errors).toEqual([]);
      } finally {
        await shopper.close();
      }
    });
  });

  it("sets a product's license key format in the form: groups of X only, empty for the default", async () => {
    const eset = demo.find((product) => product.name === 'ESET NOD32 Antivirus') as Product;
    expect(eset.keyFormat).toBeNull();
    await productRow(eset.name)
      .getByRole('button', { name: `Edit ${eset.name}` })
      .click();
    await page.getByRole('dialog', { name: 'Edit Product' }).waitFor();
    const keyFormat = page.getByLabel('License Key Format (optional)');
    expect(await keyFormat.inputValue()).toBe('');
    expect(await keyFormat.getAttribute('placeholder')).toBe('XXXXX-XXXXX-XXXXX-XXXXX-XXXXX');
    await page.getByText(/^Groups of X separated by hyphens, e\.g\. XXXX-XXXX-XXXX/).waitFor();

    await keyFormat.fill('[A-Z0-9]{5}(-[A-Z0-9]{5}){4}');
    await page.getByRole('button', { name: 'Update Product' }).click();
    await page
      .getByText('Key format must be groups of X separated by single hyphens, like XXXX-XXXX-XXXX')
      .waitFor();
    expect(await keyFormat.getAttribute('aria-invalid')).toBe('true');

    await keyFormat.fill('XXXX-XXXX-XXXX');
    const patch = page.waitForRequest((request) => request.method() === 'PATCH');
    await page.getByRole('button', { name: 'Update Product' }).click();
    expect((await patch).postDataJSON()).toMatchObject({ keyFormat: 'XXXX-XXXX-XXXX' });
    await toastSaying(page, 'Product updated successfully');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect((await getJson<Product>(`/api/products/${eset.id}`)).keyFormat).toBe('XXXX-XXXX-XXXX');
  });

  it('refuses a save on a product someone else saved since the form opened, and reloads their change', async () => {
    const visio = demo.find((product) => product.name === 'Microsoft Visio 2021 Professional') as Product;
    const editIn = async (target: Page) => {
      await target.getByRole('button', { name: `Edit ${visio.name}` }).click();
      const dialog = target.getByRole('dialog', { name: 'Edit Product' });
      await dialog.getByLabel('Description *').waitFor();
      return dialog;
    };
    const other = await openAdminPage(e2e.browser, e2e.store.url);
    try {
      await other.page.goto('/admin/products');
      const late = await editIn(other.page);
      const first = await editIn(page);

      await first.getByLabel('Description *').fill('Saved first, in the other tab.');
      await first.getByRole('button', { name: 'Update Product' }).click();
      await toastSaying(page, 'Product updated successfully');

      await late.getByLabel('Description *').fill('Saved second, on what the form loaded before.');
      const refused = other.page.waitForResponse((response) => response.request().method() === 'PATCH');
      await late.getByRole('button', { name: 'Update Product' }).click();
      expect((await refused).status()).toBe(412);
      expect((await refused).request().headers()['if-match']).toBe('"0"');
      await late.getByText('This product was changed by someone else; reload to see the changes').waitFor();
      expect((await getJson<Product>(`/api/products/${visio.id}`)).description).toBe(
        'Saved first, in the other tab.',
      );

      await late.getByRole('button', { name: 'Reload' }).click();
      await late.getByRole('alert').waitFor({ state: 'detached' });
      expect(await late.getByLabel('Description *').inputValue()).toBe('Saved first, in the other tab.');
      await late.getByLabel('Platform *').fill('Windows 10, Windows 11');
      await late.getByRole('button', { name: 'Update Product' }).click();
      await toastSaying(other.page, 'Product updated successfully');
      expect(await getJson<Product>(`/api/products/${visio.id}`)).toMatchObject({
        description: 'Saved first, in the other tab.',
        platform: 'Windows 10, Windows 11',
      });
      // The refused save is the one failed request this page reports.
      expect(other.errors.filter((error) => !error.includes('412'))).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('logged no errors in the browser', () => {
    // The server's 400 for the over-long name is the one failed request the browser reports.
    expect(admin.errors.filter((error) => !error.includes('400'))).toEqual([]);
  });
});
