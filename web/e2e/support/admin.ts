import type { Browser, Page } from 'playwright-core';
import { openPage, PHONE, type TestPage } from './browser.js';
import { ADMIN_PASSWORD } from './store.js';

/** The admin `npm start` seeds on a fresh data directory (ADMIN_USERNAME's default). */
export const ADMIN_USERNAME = 'admin';

/**
 * Signs the page in as the seeded admin through the login form, as a person would, and waits for the admin layout.
 * Leaves the page on /admin.
 */
export const signInAsAdmin = (page: Page, password = ADMIN_PASSWORD) =>
  signInToBackOffice(page, ADMIN_USERNAME, password);

/** The same for any back-office user (an auditor an admin added). */
export async function signInToBackOffice(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/admin/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL((url) => url.pathname === '/admin');
  // The layout's toggle shows at every width (on a phone the sidebar itself is a closed sheet).
  await page.getByRole('button', { name: 'Toggle Sidebar' }).waitFor();
}

/** A fresh page signed in as the seeded admin, in the given theme, at desktop or phone width. */
export async function openAdminPage(
  browser: Browser,
  storeUrl: string,
  options: { colorScheme?: 'light' | 'dark'; phone?: boolean } = {},
): Promise<TestPage> {
  const opened = await openPage(browser, storeUrl, options.phone ? { viewport: PHONE } : {});
  if (options.colorScheme) {
    await opened.page.addInitScript((theme) => localStorage.setItem('theme', theme), options.colorScheme);
  }
  await signInAsAdmin(opened.page);
  return opened;
}

/**
 * Two admin tabs, one of which hears of no change by itself (its live stream held, never answered, as when it cannot
 * connect): what another admin does in `other` stays unseen in `stale` until it reads again.
 */
export async function openStaleAndOtherAdminPages(browser: Browser, storeUrl: string) {
  const [stale, other] = await Promise.all([
    openAdminPage(browser, storeUrl),
    openAdminPage(browser, storeUrl),
  ]);
  await stale.page.route(
    (url) => url.pathname === '/api/admin/live',
    () => {},
  );
  return { stale, other, close: () => Promise.all([stale.close(), other.close()]) };
}
