import type { Product } from '@licensestore/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { hold, openPage, PHONE } from './support/browser.js';
import { storeAndBrowserForThisFile } from './support/store-and-browser.js';

const e2e = storeAndBrowserForThisFile();
/** The cards of /products whose pictures come with the page: its first row on a wide screen, two on a phone. */
const FIRST_CARDS = 4;
let products: Product[];

beforeAll(async () => {
  products = (await (await fetch(new URL('/api/products', e2e.store.url))).json()) as Product[];
});

/** The demo catalogue's first category with fewer products than the whole catalogue, and its products. */
function aCategory(): { category: string; inCategory: Product[] } {
  const category = products
    .map((product) => product.category)
    .find((name, _, all) => {
      const count = all.filter((each) => each === name).length;
      return count < all.length;
    });
  if (!category) throw new Error('the demo catalogue has a single category');
  return { category, inCategory: products.filter((product) => product.category === category) };
}

describe('with JavaScript off', () => {
  it('browses the catalogue: home, all products, a category, a product and back home', async () => {
    const { page, close } = await openPage(e2e.browser, e2e.store.url, { javaScriptEnabled: false });
    await page.goto('/');
    expect(await page.title()).toBe('Genuine Software Licenses | LicenseStore');
    const featured = page.getByRole('region', { name: 'Featured Products' });
    expect(await featured.getByRole('listitem').count()).toBe(8);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Products' }).click();
    await page.waitForURL('**/products');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('All Products');
    expect(await page.locator('main a[href^="/product/"]').count()).toBe(products.length);
    expect(await page.locator('main a[href^="/product/"] img').count()).toBe(products.length);

    const { category, inCategory } = aCategory();
    const filter = page.getByRole('group', { name: 'Filter by category' });
    await filter.getByRole('button', { name: category, exact: true }).click();
    await page.waitForURL(/category=/);
    expect(await page.title()).toBe(`${category} | LicenseStore`);
    expect(
      await filter.getByRole('button', { name: category, exact: true }).getAttribute('aria-pressed'),
    ).toBe('true');
    expect(await page.locator('main a[href^="/product/"]').count()).toBe(inCategory.length);

    const product = inCategory[0] as Product;
    await page.locator(`main a[href="/product/${product.id}"]`).click();
    await page.waitForURL(`**/product/${product.id}`);
    expect(await page.title()).toBe(`${product.name} | LicenseStore`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(product.name);
    expect(await page.getByRole('main').textContent()).toContain(product.description);

    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Home' }).click();
    await page.waitForURL(`${e2e.store.url}/`);
    expect(await page.title()).toBe('Genuine Software Licenses | LicenseStore');
    await close();
  });
});

describe('with JavaScript on', () => {
  it.each([
    ['/', 'Genuine Software Licenses | LicenseStore'],
    ['/products', 'All Products | LicenseStore'],
  ])('takes over %s as it arrived, with no console error, and then works', async (path, title) => {
    const { page, errors, close } = await openPage(e2e.browser, e2e.store.url, { viewport: PHONE });
    await page.goto(path);
    expect(await page.title()).toBe(title);
    // The app took over once a click is the app's: the cart panel opens without a page load.
    await page.getByRole('button', { name: /^Cart/ }).click();
    await page.getByRole('dialog', { name: 'Shopping Cart' }).waitFor();
    expect(errors).toEqual([]);
    await close();
  });

  it("fetches only the first cards' pictures of /products before its script runs, and every card's after", async () => {
    const { page, errors, close } = await openPage(e2e.browser, e2e.store.url, { viewport: PHONE });
    const pictures = new Set<string>();
    page.on('request', (request) => {
      if (request.url().includes('/images/products/')) pictures.add(new URL(request.url()).pathname);
    });
    const releaseScript = await hold(page, '**/assets/*.js');
    await page.goto('/products', { waitUntil: 'commit' });
    await expect.poll(() => pictures.size).toBeGreaterThanOrEqual(FIRST_CARDS);
    // Long enough for the browser to lay the page out and ask for the lazy pictures within its loading distance.
    await page.waitForTimeout(1000);
    expect(pictures.size).toBe(FIRST_CARDS);
    releaseScript();
    await expect.poll(() => page.locator('main a[href^="/product/"] img').count()).toBe(products.length);
    expect(errors).toEqual([]);
    await close();
  });

  it('takes over a product page with a stored cart and the dark theme, with no console error', async () => {
    const { page, errors, close } = await openPage(e2e.browser, e2e.store.url);
    const product = products.find((each) => each.inStock) as Product;
    await page.goto(`/product/${product.id}`);
    await page.getByRole('button', { name: 'Add to Cart - Buy Now' }).click();
    await page.getByTestId('cart-count').waitFor();
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    // What the server drew knows neither: the browser's own cart and theme replace them as it takes over.
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    await page.getByRole('button', { name: 'Switch to light theme' }).waitFor();
    expect(await page.getByTestId('cart-count').textContent()).toBe('1');
    expect(errors).toEqual([]);
    await close();
  });
});
