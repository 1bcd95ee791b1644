import type { Product } from '@licensestore/domain';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { openAdminPage } from './support/admin.js';
import { openPage, PHONE } from './support/browser.js';
import { withCart } from './support/checkout-page.js';
import { storeAndBrowserForThisFile } from './support/store-and-browser.js';

/** The reviewers' laptop screen. */
const LAPTOP = { width: 1366, height: 768 } as const;

const e2e = storeAndBrowserForThisFile();
let product: Product;

beforeAll(async () => {
  const products = (await (await fetch(new URL('/api/products', e2e.store.url))).json()) as Product[];
  const inStock = products.find((item) => item.inStock);
  if (!inStock) throw new Error('the demo catalogue has no product in stock');
  product = inStock;
});

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The controls among `controls` the toast's box covers, by name; a toast not on screen covers none. */
async function coveredBy(toast: Locator, controls: Record<string, Locator>): Promise<string[]> {
  const toastBox = await toast.boundingBox();
  if (!toastBox) return [];
  const covered: string[] = [];
  for (const [name, control] of Object.entries(controls)) {
    const box = await control.boundingBox();
    if (!box) throw new Error(`${name} is not on screen`);
    if (overlap(toastBox, box)) covered.push(name);
  }
  return covered;
}

/** Adds the product on its page and waits for the "Added to cart" toast. */
async function addToCart(page: Page): Promise<Locator> {
  await page.goto(`/product/${product.id}`);
  await page.getByRole('button', { name: 'Add to Cart - Buy Now' }).click();
  // The toast's box itself (radix marks it with its swipe direction); its role="status" twin is a hidden
  // announcement for screen readers, and an open panel hides both from the accessibility tree anyway.
  const toast = page.locator('li[data-swipe-direction]').filter({ hasText: 'Added to cart' });
  await toast.waitFor();
  return toast;
}

const cartPanelControls = (page: Page) => {
  const panel = page.getByRole('dialog', { name: 'Shopping Cart' });
  return {
    Subtotal: panel.getByText('Subtotal', { exact: true }).locator('..'),
    'Proceed to Checkout': panel.getByRole('button', { name: 'Proceed to Checkout' }),
  };
};

describe('a toast', () => {
  it("leaves the cart panel's Subtotal and Proceed to Checkout uncovered on a laptop", async () => {
    const { page, close } = await openPage(e2e.browser, e2e.store.url, { viewport: LAPTOP });
    const toast = await addToCart(page);
    await page.getByRole('button', { name: 'Cart, 1 item' }).click();
    await page.getByRole('dialog', { name: 'Shopping Cart' }).waitFor();
    // Still on screen, so the check below is about where it is, not whether it is gone.
    expect(await toast.isVisible()).toBe(true);
    expect(await coveredBy(toast, cartPanelControls(page))).toEqual([]);
    await close();
  });

  it("leaves a phone's header (logo, cart, menu) uncovered, and the open cart panel's checkout too", async () => {
    const { page, close } = await openPage(e2e.browser, e2e.store.url, { viewport: PHONE });
    const toast = await addToCart(page);
    expect(
      await coveredBy(toast, {
        logo: page.getByRole('link', { name: 'LicenseStore home' }),
        cart: page.getByRole('button', { name: 'Cart, 1 item' }),
        menu: page.getByRole('button', { name: 'Open menu' }),
      }),
    ).toEqual([]);
    await page.getByRole('button', { name: 'Cart, 1 item' }).click();
    await page.getByRole('dialog', { name: 'Shopping Cart' }).waitFor();
    expect(await coveredBy(toast, cartPanelControls(page))).toEqual([]);
    await close();
  });
});

describe('the 404 page', () => {
  it('keeps the spec texts and leads back to the home page', async () => {
    const { page, errors, close } = await openPage(e2e.browser, e2e.store.url);
    await page.goto('/no-such-page');
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    expect(await page.getByText('Did you forget to add the page to the router?').isVisible()).toBe(true);
    await page.getByRole('main').getByRole('link', { name: 'Back to Home' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    expect(errors).toEqual([]);
    await close();
  });

  it("shows under /admin inside the back office's layout, with a way back to the dashboard", async () => {
    const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
    await page.goto('/admin/no-such-screen');
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    expect(await page.getByText('Did you forget to add the page to the router?').isVisible()).toBe(true);
    expect(await page.getByText('Admin Panel', { exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Back to Dashboard' }).click();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin');
    expect(errors).toEqual([]);
    await close();
  });

  it('offers a visitor who is not signed in the way to the admin login', async () => {
    const { page, close } = await openPage(e2e.browser, e2e.store.url);
    await page.goto('/admin/no-such-screen');
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    await page.getByRole('link', { name: 'Go to Admin Login' }).click();
    await page.getByRole('button', { name: 'Login' }).waitFor();
    await close();
  });
});

describe('the words a shopper reads', () => {
  /** Everything a person reads on the page: its text, its title, and its description for search results. */
  const readableText = (page: Page) =>
    page.evaluate(
      () =>
        `${document.title}\n${document.querySelector('meta[name="description"]')?.getAttribute('content') ?? ''}\n${document.body.textContent}`,
    );

  it('spell "email" and "license" on every storefront page', async () => {
    const { page, close } = await openPage(e2e.browser, e2e.store.url);
    await withCart(page, [{ product, quantity: 1 }]);
    const pages: Array<[string, string]> = [
      ['/', 'Featured Products'],
      ['/products', 'All Products'],
      [`/product/${product.id}`, product.name],
      ['/checkout', 'Checkout'],
      ['/sign-in', 'Sign in'],
      ['/sign-up', 'Create your account'],
      ['/sign-in/link-expired', 'This sign-in link has expired or was already used'],
      ['/no-such-page', '404 Page Not Found'],
    ];
    const misspelt: string[] = [];
    for (const [path, heading] of pages) {
      await page.goto(path);
      await page.getByRole('heading', { name: heading }).first().waitFor();
      await page.getByText('Loading', { exact: false }).first().waitFor({ state: 'hidden' });
      const text = await readableText(page);
      for (const word of text.match(/e-mail\w*|licence\w*/gi) ?? []) misspelt.push(`${path}: ${word}`);
    }
    await page.getByRole('button', { name: 'Cart, 1 item' }).click();
    await page.getByRole('dialog', { name: 'Shopping Cart' }).waitFor();
    for (const word of (await readableText(page)).match(/e-mail\w*|licence\w*/gi) ?? []) {
      misspelt.push(`cart panel: ${word}`);
    }
    expect(misspelt).toEqual([]);
    await close();
  });

  it('keep the delivery claims in one story: no "instantly" beside "within 15-30 minutes"', async () => {
    const { page, close } = await openPage(e2e.browser, e2e.store.url);
    await page.goto('/');
    await page.getByRole('heading', { level: 1 }).waitFor();
    const hero = (await page.getByRole('heading', { level: 1 }).textContent()) ?? '';
    expect(hero).not.toMatch(/instant/i);
    expect(await page.getByText('within 15-30 minutes', { exact: false }).first().isVisible()).toBe(true);
    await close();
  });

  it("present a product's rating as the store's, so a product added a minute ago does not claim 1,200+ reviews of its own", async () => {
    const { page, close } = await openPage(e2e.browser, e2e.store.url);
    await page.goto(`/product/${product.id}`);
    const rating = page.getByRole('main').getByText('(1,200+ reviews)').locator('..');
    await rating.waitFor();
    expect(await rating.textContent()).toMatch(/^Store rating\s*4\.8\s*\(1,200\+ reviews\)$/);
    await close();
  });

  it('date the testimonials within the months before the store opened, not years back', async () => {
    const { page, close } = await openPage(e2e.browser, e2e.store.url);
    await page.goto('/');
    const dates = page.locator('figure time');
    await dates.first().waitFor();
    const halfAYearAgo = Date.now() - 183 * 24 * 60 * 60 * 1000;
    for (const date of await dates.evaluateAll((times) =>
      times.map((time) => time.getAttribute('datetime')),
    )) {
      const at = Date.parse(`${date}T00:00:00Z`);
      expect(at).toBeGreaterThan(halfAYearAgo);
      expect(at).toBeLessThanOrEqual(Date.now());
    }
    await close();
  });
});
