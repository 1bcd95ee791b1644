import type { Product } from '@licensestore/domain';
import { orderNumber } from '@licensestore/domain/orders/order-number';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { openAdminPage, signInToBackOffice } from './support/admin.js';
import { openPage, seriousA11yViolations, toastSaying } from './support/browser.js';
import { type PlacedOrder, purchasableProducts, purchase, waitForLicenseKeys } from './support/purchases.js';
import { storeAndBrowserForThisFile } from './support/store-and-browser.js';

const AUDITOR = { username: 'ann-auditor', password: 'auditor password 1' };

/** Names of controls that change something; an auditor's screens must offer none of them. */
const WRITE_CONTROL = /add|edit|delete|import|upload|resend|reveal|copy|status of order|create|update|save/i;

const e2e = storeAndBrowserForThisFile();
let order: PlacedOrder;

beforeAll(async () => {
  const [product] = await purchasableProducts(e2e.store.url);
  order = await purchase(e2e.store.url, { name: 'Grace Hopper', email: 'grace@example.com' }, [
    { product: product as Product, quantity: 1 },
  ]);
  await waitForLicenseKeys(e2e.store.url, order);
});

/** Every button, combobox and checkbox on the page (sidebar, top bar and screen) by its accessible name. */
async function controlNames(page: Page): Promise<string[]> {
  const names: string[] = [];
  for (const role of ['button', 'combobox', 'checkbox', 'textbox'] as const) {
    for (const control of await page.getByRole(role).all()) {
      names.push(
        `${role} ${(await control.getAttribute('aria-label')) ?? (await control.textContent()) ?? ''}`,
      );
    }
  }
  return names;
}

async function writeControls(page: Page): Promise<string[]> {
  const names = await controlNames(page);
  // The scan sees the page's controls (an empty page would pass for the wrong reason).
  expect(names).toContain('button Logout');
  return names.filter((name) => WRITE_CONTROL.test(name));
}

async function openScreen(page: Page, navLabel: string, heading: string) {
  await page.getByRole('link', { name: navLabel, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  // Lists render their rows after the data arrives: wait for the busy table to settle.
  await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
}

/** The screen's subtitle promises no changes: the admin's "Manage ..." sentence is not shown to an auditor. */
async function readOnlyWording(page: Page, readOnly: string, admin: string) {
  expect(await page.getByText(readOnly, { exact: true }).isVisible()).toBe(true);
  expect(await page.getByText(admin, { exact: true }).count()).toBe(0);
}

describe('Auditors', () => {
  it('are added by an admin on the Team screen', async () => {
    const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
    await openScreen(page, 'Team', 'Team');
    const table = page.getByRole('table', { name: 'Back-office users' });
    expect(await table.getByRole('row').filter({ hasText: 'admin' }).textContent()).toContain('(you)');

    await page.getByRole('button', { name: 'Add User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add User' });
    await dialog.getByLabel('Username').fill(AUDITOR.username);
    await dialog.getByLabel('Password').fill('too short');
    await dialog.getByRole('button', { name: 'Add User' }).click();
    await dialog.getByText('The password needs at least 12 characters').waitFor();
    await dialog.getByLabel('Password').fill(AUDITOR.password);
    expect(await dialog.getByRole('combobox', { name: 'Role' }).textContent()).toBe('Auditor');
    await dialog.getByRole('button', { name: 'Add User' }).click();
    await toastSaying(page, 'User added', `${AUDITOR.username} can sign in as an auditor.`);
    await dialog.waitFor({ state: 'detached' });
    const row = table.getByRole('row').filter({ hasText: AUDITOR.username });
    expect(await row.getByText('Auditor', { exact: true }).isVisible()).toBe(true);
    expect(await row.getByRole('button', { name: `Delete user ${AUDITOR.username}` }).isVisible()).toBe(true);

    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  });

  it('see every admin screen without a control that changes anything', async () => {
    const { page, errors, close } = await openPage(e2e.browser, e2e.store.url);
    await signInToBackOffice(page, AUDITOR.username, AUDITOR.password);
    await page.getByText('Read-only (auditor)').waitFor();
    expect(await page.getByRole('link', { name: 'Team' }).count()).toBe(0);

    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await page.getByText('Recent Orders').waitFor();
    await page.getByRole('link', { name: 'View license keys' }).waitFor();
    expect(await page.getByRole('link', { name: 'Manage license keys' }).count()).toBe(0);
    expect(await writeControls(page)).toEqual([]);

    await openScreen(page, 'Products', 'Products');
    expect(
      await page.getByRole('table', { name: 'Products' }).getByRole('columnheader').allTextContents(),
    ).toEqual(['Product', 'Category', 'Platform', 'Price', 'Status']);
    await readOnlyWording(page, 'Browse the product catalog (read-only)', 'Manage your product catalog');
    expect(await writeControls(page)).toEqual([]);

    await openScreen(page, 'Orders', 'Orders');
    const orders = page.getByRole('table', { name: 'Orders' });
    expect(await orders.getByRole('columnheader').allTextContents()).not.toContain('Actions');
    await readOnlyWording(page, 'Browse customer orders (read-only)', 'Manage customer orders');
    expect(await writeControls(page)).toEqual([]);

    // The order's keys come masked, with nothing to reveal or copy.
    await orders.getByRole('link', { name: `Order ${orderNumber(order.id)}: details and history` }).click();
    const keys = page.getByRole('list', { name: /^License keys of / });
    await keys.waitFor();
    expect(await keys.getByRole('listitem').first().textContent()).toMatch(/^X+-…-\w{4}$/);
    expect(await writeControls(page)).toEqual([]);

    await openScreen(page, 'Customers', 'Customers');
    await page.getByRole('cell', { name: 'grace@example.com' }).waitFor();
    expect(await writeControls(page)).toEqual([]);

    await openScreen(page, 'License Keys', 'License Keys');
    const keyCells = await page
      .getByRole('table', { name: 'License keys' })
      .locator('tbody tr td:nth-child(2)')
      .allTextContents();
    expect(keyCells.length).toBeGreaterThan(0);
    for (const key of keyCells) expect(key).toMatch(/^X+-…-\w{4}$/);
    await readOnlyWording(
      page,
      'Browse the product license keys inventory (read-only)',
      'Manage product license keys inventory',
    );
    expect(await writeControls(page)).toEqual([]);

    // Typed in by hand, the Team screen says it is not theirs; the server refuses its API anyway.
    await page.goto('/admin/team');
    await page.getByText('Only admins manage the team.').waitFor();
    expect(await page.getByRole('table', { name: 'Back-office users' }).count()).toBe(0);

    expect(errors).toEqual([]);
    await close();
  });
});
