import type { Product } from '@licensestore/domain';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { openAdminPage } from './support/admin.js';
import { seriousA11yViolations, toastSaying } from './support/browser.js';
import { purchasableProducts } from './support/purchases.js';
import { storeAndBrowserForThisFile } from './support/store-and-browser.js';

const e2e = storeAndBrowserForThisFile();
let products: Product[];

beforeAll(async () => {
  // In stock, each with the demo store's 20 keys.
  products = await purchasableProducts(e2e.store.url);
});

/** An admin's product command, as the edit form sends it. */
async function setInStock(page: Page, productId: string, inStock: boolean) {
  const answer = await page.request.patch(`/api/products/${productId}`, { data: { inStock } });
  expect(answer.status(), await answer.text()).toBe(200);
}

const productRow = (page: Page, name: string) =>
  page.getByRole('table', { name: 'Products' }).getByRole('row').filter({ hasText: name });

describe('Stock that tells the truth', () => {
  it('flags a product shown out of stock while keys are available on the product list, and marks it in stock in one click', async () => {
    const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
    const product = products[0] as Product;
    await setInStock(page, product.id, false);

    await page.goto('/admin/products');
    const row = productRow(page, product.name);
    await row.getByText('Shown out of stock, 20 keys available').waitFor();
    expect(await row.getByText('Out of Stock', { exact: true }).isVisible()).toBe(true);
    // Every other demo product tells the truth: only this row is flagged.
    expect(await page.getByRole('button', { name: /^Mark (in|out of) stock/ }).count()).toBe(1);

    await row.getByRole('button', { name: `Mark in stock: ${product.name}` }).click();
    await toastSaying(page, 'Marked in stock');
    await row.getByText('In Stock', { exact: true }).waitFor();
    await row.getByText(/^Shown out of stock/).waitFor({ state: 'detached' });
    expect(((await (await page.request.get(`/api/products/${product.id}`)).json()) as Product).inStock).toBe(
      true,
    );
    expect(errors).toEqual([]);
    await close();
  });

  it('lists the mismatches on the dashboard, where one click marks a product without keys out of stock', async () => {
    const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
    const created = await page.request.post('/api/products', {
      data: {
        name: 'Mismatch Suite 2026',
        description: 'Shown in stock before any key arrived.',
        imageUrl: '/images/products/windows-11-pro.svg',
        category: 'Office',
        platform: 'Windows',
        regularPrice: '20.00',
        inStock: true,
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const product = (await created.json()) as Product;

    await page.goto('/admin');
    const notice = page.getByRole('region', { name: 'Stock shown wrongly' });
    const item = notice.getByRole('listitem').filter({ hasText: product.name });
    await item.getByText('Shown in stock, no keys available').waitFor();
    await item.getByRole('button', { name: `Mark out of stock: ${product.name}` }).click();
    await toastSaying(page, 'Marked out of stock');
    // The only mismatch fixed, the notice goes.
    await notice.waitFor({ state: 'detached' });

    await page.goto('/admin/products');
    const row = productRow(page, product.name);
    await row.getByText('Out of Stock', { exact: true }).waitFor();
    expect(await row.getByText(/^Shown /).count()).toBe(0);
    expect(errors).toEqual([]);
    await close();
  });

  it.each(['light', 'dark'] as const)(
    'has no serious accessibility violations in the flag and the notice, %s theme',
    async (colorScheme) => {
      const { page, close } = await openAdminPage(e2e.browser, e2e.store.url, { colorScheme });
      const product = products[1] as Product;
      await setInStock(page, product.id, false);
      await page.goto('/admin');
      await page.getByRole('region', { name: 'Stock shown wrongly' }).getByText(product.name).waitFor();
      expect(await seriousA11yViolations(page)).toEqual([]);
      await page.goto('/admin/products');
      await productRow(page, product.name)
        .getByText(/^Shown out of stock/)
        .waitFor();
      expect(await seriousA11yViolations(page)).toEqual([]);
      await setInStock(page, product.id, true);
      await close();
    },
  );
});
