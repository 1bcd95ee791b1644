import type { Page } from 'playwright-core';
import { ADMIN_PASSWORD } from './store.js';

/** The admin `npm start` seeds on a fresh data directory (ADMIN_USERNAME's default). */
export const ADMIN_USERNAME = 'admin';

/**
 * Signs the page in as the seeded admin through the login form, as a person would, and waits for the admin layout.
 * Leaves the page on /admin.
 */
export async function signInAsAdmin(page: Page, password = ADMIN_PASSWORD): Promise<void> {
  await page.goto('/admin/login');
  await page.getByLabel('Username').fill(ADMIN_USERNAME);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL((url) => url.pathname === '/admin');
  // The layout's toggle shows at every width (on a phone the sidebar itself is a closed sheet).
  await page.getByRole('button', { name: 'Toggle Sidebar' }).waitFor();
}
