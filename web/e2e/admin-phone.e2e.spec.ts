import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { openAdminPage } from './support/admin.js';
import { PHONE, seriousA11yViolations } from './support/browser.js';
import { type PlacedOrder, purchasableProducts, purchase } from './support/purchases.js';
import { storeAndBrowserForThisFile } from './support/store-and-browser.js';

const e2e = storeAndBrowserForThisFile();
let order: PlacedOrder;

const ADA = { name: 'Ada Lovelace', email: 'ada@example.com' };
/** An address longer than a phone is wide, which must wrap wherever it is shown. */
const GRACE = {
  name: 'Grace Hopper',
  email: 'grace.brewster.murray.hopper@navy-computing-history.example.org',
};

beforeAll(async () => {
  const [product] = await purchasableProducts(e2e.store.url);
  const line = { product: product as NonNullable<typeof product>, quantity: 1 };
  await purchase(e2e.store.url, ADA, [line]);
  order = await purchase(e2e.store.url, GRACE, [line]);
});

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
  shown: boolean;
}

/**
 * Each row of the list named `name`, its values by label, each where it sits once the page (never the list) is
 * scrolled down to the row: read from a table's header and cells, or from a list of cards' terms and definitions.
 */
const rowsOf = (page: Page, name: string) =>
  page.evaluate((name) => {
    const list = document.querySelector(`[aria-label="${name}"]`) as HTMLElement;
    const box = (element: Element | null) => {
      const rect = element?.getBoundingClientRect();
      return {
        left: rect?.left ?? -1,
        right: rect?.right ?? -1,
        top: rect?.top ?? -1,
        bottom: rect?.bottom ?? -1,
        shown: element?.checkVisibility() ?? false,
      };
    };
    const rows: Element[] =
      list instanceof HTMLTableElement ? [...(list.tBodies[0]?.rows ?? [])] : [...list.children];
    const headers = [...list.querySelectorAll('th')].map((header) => header.textContent ?? '');
    return rows.map((row) => {
      const rect = row.getBoundingClientRect();
      window.scrollTo(0, window.scrollY + rect.top - Math.max(0, (window.innerHeight - rect.height) / 2));
      const values: Array<[string, Element | null]> =
        row instanceof HTMLTableRowElement
          ? [...row.cells].map((cell, index) => [headers[index] ?? '', cell])
          : [...row.querySelectorAll('dt')].map((term) => [term.textContent ?? '', term.nextElementSibling]);
      return Object.fromEntries(values.map(([label, value]): [string, Box] => [label, box(value)]));
    });
  }, name);

/** Waits for the list's rows (not its loading placeholders), then checks every value of every row is on screen. */
async function expectRowsOnScreen(page: Page, name: string, fields: string[]) {
  await page.waitForFunction((name) => {
    const list = document.querySelector(`[aria-label="${name}"]`);
    return list && list.getAttribute('aria-busy') !== 'true' && list.querySelector('a, button, td, dd');
  }, name);
  const rows = await rowsOf(page, name);
  expect(rows.length, name).toBeGreaterThan(0);
  for (const row of rows) {
    expect(Object.keys(row), name).toEqual(expect.arrayContaining(fields));
    for (const [label, box] of Object.entries(row)) {
      const where = `${name}: ${label}`;
      expect(box.shown, where).toBe(true);
      expect(box.left, where).toBeGreaterThanOrEqual(0);
      expect(box.right, where).toBeLessThanOrEqual(PHONE.width);
      expect(box.top, where).toBeGreaterThanOrEqual(0);
      expect(box.bottom, where).toBeLessThanOrEqual(PHONE.height);
    }
  }
  return rows;
}

const scrollsSideways = (page: Page) =>
  page.evaluate(() => {
    const scroller = document.scrollingElement as Element;
    return scroller.scrollWidth > scroller.clientWidth;
  });

describe('the back office on a 390 px phone', () => {
  it('shows every row of every list whole, as a card, and never scrolls sideways', async () => {
    const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url, { phone: true });
    // Someone besides yourself on the Team screen, whose row has a Delete button.
    expect(
      await page.evaluate(async () => {
        const user = { username: 'ann-auditor', password: 'auditor password 1', role: 'auditor' };
        const body = JSON.stringify(user);
        const headers = { 'Content-Type': 'application/json' };
        return (await fetch('/api/admin/users', { method: 'POST', headers, body })).status;
      }),
    ).toBe(201);
    const screens: Array<[path: string, list: string, fields: string[]]> = [
      ['/admin/products', 'Products', ['Product', 'Price', 'Status', 'Actions']],
      ['/admin/orders', 'Orders', ['Order ID', 'Total', 'Status', 'Actions']],
      ['/admin/customers', 'Customers', ['Name', 'Total Spent', 'Last Order']],
      [`/admin/customers/${encodeURIComponent(ADA.email)}`, 'Orders', ['Total', 'Status', 'Actions']],
      ['/admin/license-keys', 'License keys', ['License Key', 'Status', 'Order ID', 'Actions']],
      ['/admin/team', 'Back-office users', ['Username', 'Role', 'Added']],
      ['/admin/audit/events', 'Events, newest first', ['Time', 'Type', 'Stream', 'Data']],
    ];
    for (const [path, list, fields] of screens) {
      await page.goto(path);
      await expectRowsOnScreen(page, list, fields);
      expect(await scrollsSideways(page), path).toBe(false);
      expect(await seriousA11yViolations(page), path).toEqual([]);
    }
    // Nobody deletes their own account: only the auditor's row has buttons.
    await page.goto('/admin/team');
    const team = await expectRowsOnScreen(page, 'Back-office users', ['Username']);
    expect(team.map((row) => 'Actions' in row)).toEqual([false, true]);

    await page.goto('/admin/audit/verify');
    await page.getByRole('button', { name: 'Start verification' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Every read model matches the replay of the event log.' })
      .waitFor({ timeout: 60_000 });
    await expectRowsOnScreen(page, 'Tables compared', [
      'Projector',
      'Table',
      'Missing',
      'Extra',
      'Different',
    ]);
    await expectRowsOnScreen(page, 'Recent verifications', ['Started', 'Status', 'Actions']);
    expect(await scrollsSideways(page)).toBe(false);

    for (const [path, landmark] of [
      ['/admin', 'Recent Orders'],
      [`/admin/orders/${order.id}`, 'Refunds'],
    ] as const) {
      await page.goto(path);
      await page.getByRole('region', { name: landmark }).waitFor();
      expect(await scrollsSideways(page), path).toBe(false);
    }
    // The order page leads to its key's history and the order's audit history.
    await page
      .getByRole('link', { name: /^History of / })
      .first()
      .click();
    await page.getByRole('heading', { name: 'License key history' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await scrollsSideways(page), 'key history').toBe(false);
    for (const [path, heading] of [
      [`/admin/audit/orders/${order.id}`, /: history$/],
      ['/admin/audit/dashboard', 'Dashboard As Of'],
    ] as const) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      await page.waitForLoadState('networkidle');
      expect(await scrollsSideways(page), path).toBe(false);
    }
    expect(errors).toEqual([]);
    await close();
  });

  it('keeps the controls of a card in reading order: from the order link, Tab reaches its status', async () => {
    const { page, close } = await openAdminPage(e2e.browser, e2e.store.url, { phone: true });
    await page.goto('/admin/orders');
    const card = page
      .getByRole('list', { name: 'Orders' })
      .getByRole('listitem')
      .filter({ hasText: GRACE.email });
    await card.getByRole('link', { name: /details and history/ }).focus();
    await page.keyboard.press('Tab');
    const status = card.getByRole('combobox', { name: /^Status of order/ });
    expect(await status.evaluate((element) => element === document.activeElement)).toBe(true);
    await close();
  });

  it('has no serious accessibility violations in the dark theme', async () => {
    const { page, close } = await openAdminPage(e2e.browser, e2e.store.url, {
      phone: true,
      colorScheme: 'dark',
    });
    for (const [path, list] of [
      ['/admin/products', 'Products'],
      ['/admin/orders', 'Orders'],
      ['/admin/license-keys', 'License keys'],
    ] as const) {
      await page.goto(path);
      await page.getByRole('list', { name: list }).getByRole('listitem').first().waitFor();
      expect(await seriousA11yViolations(page), path).toEqual([]);
    }
    await close();
  });
});
