import { describe, expect, it } from 'vitest';
import { openPage, PHONE, seriousA11yViolations } from './support/browser.js';
import { storeAndBrowserForThisFile } from './support/store-and-browser.js';

const e2e = storeAndBrowserForThisFile();

describe('the 404 page', () => {
  it.each(['/no-such-page', '/product', '/admin/no-such-screen'])(
    'answers %s with the spec texts',
    async (path) => {
      const { page, errors, close } = await openPage(e2e.browser, e2e.store.url);
      await page.goto(path);
      await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
      expect(await page.getByText('Did you forget to add the page to the router?').isVisible()).toBe(true);
      expect(await page.title()).toBe('Page Not Found | LicenseStore');
      expect(errors).toEqual([]);
      await close();
    },
  );

  it('shows no storefront header under /admin', async () => {
    const { page, close } = await openPage(e2e.browser, e2e.store.url);
    await page.goto('/admin/no-such-screen');
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
    await close();
  });
});

describe('the header', () => {
  it('offers Sign In and Sign Up at /api/login when signed out, and no My Orders', async () => {
    const { page, close } = await openPage(e2e.browser, e2e.store.url);
    await page.goto('/no-such-page');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Home' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Products' }).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'My Orders' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Sign In' }).getAttribute('href')).toBe('/api/login');
    expect(await page.getByRole('link', { name: 'Sign Up' }).getAttribute('href')).toBe(
      '/api/login?intent=sign-up',
    );
    await close();
  });

  it('opens the empty cart panel from the cart button', async () => {
    const { page, close } = await openPage(e2e.browser, e2e.store.url);
    await page.goto('/no-such-page');
    await page.getByRole('button', { name: 'Cart, empty' }).click();
    const panel = page.getByRole('dialog', { name: 'Shopping Cart' });
    await panel.waitFor();
    expect(await panel.getByText('Your cart is empty').isVisible()).toBe(true);
    expect(await panel.getByText('Add some products to get started').isVisible()).toBe(true);
    await panel.getByRole('button', { name: 'Continue Shopping' }).click();
    await panel.waitFor({ state: 'detached' });
    await close();
  });

  it.each(['Escape', 'Close', 'Continue Shopping'])(
    'gives focus back to the cart button when the panel closes by %s',
    async (how) => {
      const { page, close } = await openPage(e2e.browser, e2e.store.url);
      await page.goto('/no-such-page');
      const cartButton = page.getByRole('button', { name: 'Cart, empty' });
      await cartButton.click();
      const panel = page.getByRole('dialog', { name: 'Shopping Cart' });
      await panel.waitFor();
      if (how === 'Escape') await page.keyboard.press('Escape');
      else await panel.getByRole('button', { name: how }).click();
      await panel.waitFor({ state: 'detached' });
      expect(await cartButton.evaluate((button) => button === document.activeElement)).toBe(true);
      await close();
    },
  );

  it('keeps the theme in local storage under theme, as a dark class on the root, across reloads', async () => {
    const { page, close } = await openPage(e2e.browser, e2e.store.url, { colorScheme: 'light' });
    await page.goto('/no-such-page');
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    await page.reload();
    // Set by index.html's script before the first paint: already dark when the document is parsed.
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    await page.getByRole('button', { name: 'Switch to light theme' }).click();
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('light');
    await close();
  });

  it('folds the links into a menu below 768 px', async () => {
    const { page, close } = await openPage(e2e.browser, e2e.store.url, { viewport: PHONE });
    await page.goto('/no-such-page');
    const menuButton = page.getByRole('button', { name: 'Open menu' });
    await menuButton.waitFor();
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    await menuButton.click();
    const menu = page.getByRole('navigation', { name: 'Mobile' });
    for (const name of ['Home', 'Products', 'Sign In']) {
      expect(await menu.getByRole('link', { name }).isVisible()).toBe(true);
    }
    await menu.getByRole('link', { name: 'Products' }).click();
    await page.waitForURL('**/products');
    expect(await menu.count()).toBe(0);
    await close();
  });

  it('has no serious accessibility violations, in either theme', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const { page, close } = await openPage(e2e.browser, e2e.store.url, { colorScheme });
      await page.goto('/no-such-page');
      await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
      expect(await seriousA11yViolations(page)).toEqual([]);
      await close();
    }
  });
});

describe('a signed-out visitor', () => {
  it('browses the storefront without one failed request', async () => {
    const { page, errors, close } = await openPage(e2e.browser, e2e.store.url);
    const failed: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    for (const path of ['/', '/products', '/account', '/checkout']) {
      await page.goto(path, { waitUntil: 'networkidle' });
    }
    expect(failed).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  });
});
