import { orderNumber } from '@licensestore/domain/orders/order-number';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_USERNAME, openAdminPage } from './support/admin.js';
import { seriousA11yViolations } from './support/browser.js';
import { type PlacedOrder, purchasableProducts, purchase } from './support/purchases.js';
import { storeAndBrowserForThisFile } from './support/store-and-browser.js';

const e2e = storeAndBrowserForThisFile();
/** Newest first, as the list shows them. */
let orders: PlacedOrder[];

const ADA = { name: 'Ada Lovelace', email: 'ada@example.com' };
const GRACE = { name: 'Grace Hopper', email: 'grace@example.org' };
const ALAN = { name: 'Alan Turing', email: 'alan@example.net' };

beforeAll(async () => {
  const [product] = await purchasableProducts(e2e.store.url);
  const placed: PlacedOrder[] = [];
  for (const customer of [ADA, GRACE, ADA, ALAN, ADA]) {
    placed.push(
      await purchase(e2e.store.url, customer, [
        { product: product as NonNullable<typeof product>, quantity: 1 },
      ]),
    );
  }
  orders = placed.reverse();
});

const numbersShown = async (page: Page) =>
  page.getByRole('table', { name: 'Orders' }).getByRole('link').allTextContents();

/**
 * Waits until the elements `selector` picks begin with exactly these texts, in order: a page change keeps the old
 * rows until the new ones arrive.
 */
const showsTexts = (page: Page, selector: string, expected: string[]) =>
  page.waitForFunction(
    ({ css, wanted }) =>
      JSON.stringify(
        [...document.querySelectorAll(css)].map((element) => element.firstChild?.textContent),
      ) === JSON.stringify(wanted),
    { css: selector, wanted: expected },
  );

/** Waits until the table shows exactly these orders. */
const showsOrders = async (page: Page, expected: PlacedOrder[]) => {
  const numbers = expected.map((order) => orderNumber(order.id));
  await showsTexts(page, 'table[aria-label="Orders"] tbody a', numbers);
  expect(await numbersShown(page)).toEqual(numbers);
};

describe('the Orders screen', () => {
  it('pages forward and back with the page in the URL, kept on reload and by the back button', async () => {
    const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
    await page.goto('/admin/orders?limit=2');
    await showsOrders(page, orders.slice(0, 2));
    const pages = page.getByRole('navigation', { name: 'Orders pages' });
    expect(await pages.getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true);

    await pages.getByRole('button', { name: 'Next' }).click();
    await showsOrders(page, orders.slice(2, 4));
    expect(new URL(page.url()).searchParams.get('cursor')).toBeTruthy();
    await pages.getByRole('button', { name: 'Next' }).click();
    await showsOrders(page, orders.slice(4));
    expect(await pages.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);

    await page.reload();
    await showsOrders(page, orders.slice(4));
    await page.goBack();
    await showsOrders(page, orders.slice(2, 4));
    await pages.getByRole('button', { name: 'Previous' }).click();
    await showsOrders(page, orders.slice(0, 2));
    await page.screenshot({ path: '/tmp/h-paging-orders.png', fullPage: true });
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  });

  it('searches by name and by order number from the keyboard, the search in the URL; no match offers to clear', async () => {
    const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
    await page.goto('/admin/orders');
    await showsOrders(page, orders);
    const search = page.getByRole('searchbox', { name: 'Search orders' });
    await search.fill('hopper');
    await search.press('Enter');
    const grace = orders.filter((order) => order.customerEmail === GRACE.email);
    await showsOrders(page, grace);
    expect(new URL(page.url()).searchParams.get('q')).toBe('hopper');

    const alan = orders.find((order) => order.customerEmail === ALAN.email) as PlacedOrder;
    await search.fill(orderNumber(alan.id));
    await search.press('Enter');
    await showsOrders(page, [alan]);

    await search.fill('nobody-here');
    await search.press('Enter');
    await page.getByText('No orders match these filters.').waitFor();
    await page.screenshot({ path: '/tmp/h-paging-orders-no-match.png', fullPage: true });
    await page.getByRole('button', { name: 'Clear filters' }).first().click();
    await showsOrders(page, orders);
    expect(await search.inputValue()).toBe('');

    // The back button brings the earlier search back, in the field and in the list.
    await page.goBack();
    await page.getByText('No orders match these filters.').waitFor();
    expect(await search.inputValue()).toBe('nobody-here');
    expect(errors).toEqual([]);
    await close();
  });

  it('filters by status and sorts by the server, both in the URL', async () => {
    const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
    await page.goto('/admin/orders');
    await showsOrders(page, orders);
    await page.getByRole('combobox', { name: 'Status', exact: true }).click();
    await page.getByRole('option', { name: 'Cancelled', exact: true }).click();
    await page.getByText('No orders match these filters.').waitFor();
    expect(new URL(page.url()).searchParams.get('status')).toBe('cancelled');
    await page.getByRole('combobox', { name: 'Status', exact: true }).click();
    await page.getByRole('option', { name: 'All statuses', exact: true }).click();
    await showsOrders(page, orders);

    await page.getByRole('combobox', { name: 'Sort by' }).click();
    await page.getByRole('option', { name: 'Oldest first', exact: true }).click();
    await showsOrders(page, [...orders].reverse());
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ sort: 'createdAt', dir: 'asc' });
    expect(errors).toEqual([]);
    await close();
  });
});

describe('the Customers screen', () => {
  it("pages and searches customers, and opens a customer's page with their orders a page at a time", async () => {
    const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
    await page.goto('/admin/customers?limit=2');
    const table = page.getByRole('table', { name: 'Customers' });
    const names = () => table.getByRole('link').allTextContents();
    // The latest buyer first: Ada bought last, then Alan, then Grace.
    await table.getByRole('link', { name: /Ada Lovelace/ }).waitFor();
    expect(await names()).toEqual(['Ada Lovelace', 'Alan Turing']);
    await page
      .getByRole('navigation', { name: 'Customers pages' })
      .getByRole('button', { name: 'Next' })
      .click();
    await table.getByRole('link', { name: /Grace Hopper/ }).waitFor();
    expect(await names()).toEqual(['Grace Hopper']);

    const search = page.getByRole('searchbox', { name: 'Search customers' });
    await search.fill('ADA@EXAMPLE');
    await search.press('Enter');
    await page.waitForURL(
      (url) => url.searchParams.get('q') === 'ADA@EXAMPLE' && !url.searchParams.has('cursor'),
    );
    await table.getByRole('link', { name: /Ada Lovelace/ }).waitFor();
    expect(await names()).toEqual(['Ada Lovelace']);
    await page.screenshot({ path: '/tmp/h-paging-customers.png', fullPage: true });

    await table.getByRole('link', { name: /Ada Lovelace/ }).click();
    await page.waitForURL((url) => url.pathname === `/admin/customers/${encodeURIComponent(ADA.email)}`);
    await page.getByRole('heading', { level: 1, name: 'Ada Lovelace' }).waitFor();
    const adas = orders.filter((order) => order.customerEmail === ADA.email);
    await showsOrders(page, adas);
    await page.goto(`/admin/customers/${encodeURIComponent(ADA.email)}?limit=2`);
    await showsOrders(page, adas.slice(0, 2));
    await page
      .getByRole('navigation', { name: 'Orders pages' })
      .getByRole('button', { name: 'Next' })
      .click();
    await showsOrders(page, adas.slice(2));
    await page.screenshot({ path: '/tmp/h-paging-customer.png', fullPage: true });
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.goto(`/admin/customers/${encodeURIComponent('nobody@example.com')}`);
    await page.getByRole('heading', { level: 1, name: 'Customer not found' }).waitFor();
    expect(errors.filter((error) => !error.includes('404'))).toEqual([]);
    await close();
  });
});

describe('the Team screen', () => {
  /** Added after the seeded admin, in this order: the list shows the earliest added first. */
  const TEAM = [
    { username: 'ann-auditor', role: 'auditor' },
    { username: 'bob-admin', role: 'admin' },
    { username: 'cy-auditor', role: 'auditor' },
    { username: 'dee-auditor', role: 'auditor' },
  ] as const;
  const EVERYONE = [ADMIN_USERNAME, ...TEAM.map((user) => user.username)];
  const AUDITORS = TEAM.filter((user) => user.role === 'auditor').map((user) => user.username);

  beforeAll(async () => {
    const { page, close } = await openAdminPage(e2e.browser, e2e.store.url);
    for (const user of TEAM) {
      const added = await page.request.post('/api/admin/users', {
        data: { ...user, password: 'team member password' },
      });
      expect(added.status(), await added.text()).toBe(201);
    }
    await close();
  });

  /** Waits until the table shows exactly these users ("(you)" follows the name, outside its text). */
  const showsUsers = (page: Page, expected: string[]) =>
    showsTexts(page, 'table[aria-label="Back-office users"] tbody td:first-child', expected);

  it('pages on the server with the role filter and the page in the URL, kept on reload and by the back button', async () => {
    const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
    await page.goto('/admin/team?limit=2');
    await showsUsers(page, EVERYONE.slice(0, 2));
    const pages = page.getByRole('navigation', { name: 'Back-office user pages' });
    expect(await pages.getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true);
    await pages.getByRole('button', { name: 'Next' }).click();
    await showsUsers(page, EVERYONE.slice(2, 4));
    expect(new URL(page.url()).searchParams.get('cursor')).toBeTruthy();

    const role = page.getByRole('combobox', { name: 'Role' });
    await role.click();
    await page.getByRole('option', { name: 'Auditor', exact: true }).click();
    await page.waitForURL(
      (url) => url.searchParams.get('role') === 'auditor' && !url.searchParams.has('cursor'),
    );
    await showsUsers(page, AUDITORS.slice(0, 2));
    await pages.getByRole('button', { name: 'Next' }).click();
    await showsUsers(page, AUDITORS.slice(2));
    expect(await pages.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);

    // The URL is the page: a reload shows the same auditors, the select still saying so.
    await page.reload();
    await showsUsers(page, AUDITORS.slice(2));
    expect(await role.textContent()).toBe('Auditor');
    await page.goBack();
    await showsUsers(page, AUDITORS.slice(0, 2));
    await page.goBack();
    await showsUsers(page, EVERYONE.slice(2, 4));
    expect(await role.textContent()).toBe('All roles');
    await page.screenshot({ path: '/tmp/h-paging-team.png', fullPage: true });
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  });
});
