import { maskedKey } from '@licensestore/domain/audit';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { openAdminPage } from './support/admin.js';
import { seriousA11yViolations } from './support/browser.js';
import { type PlacedOrder, purchasableProducts, purchase, waitForLicenseKeys } from './support/purchases.js';
import { storeAndBrowserForThisFile } from './support/store-and-browser.js';

const e2e = storeAndBrowserForThisFile();
let order: PlacedOrder;
/** The order's one key, as the store sold it. */
let soldKey: string;

beforeAll(async () => {
  const [product] = await purchasableProducts(e2e.store.url);
  if (!product) throw new Error('the demo catalogue has nothing to buy');
  order = await purchase(e2e.store.url, { name: 'Ada Lovelace', email: 'ada@example.com' }, [
    { product, quantity: 1 },
  ]);
  const [line] = await waitForLicenseKeys(e2e.store.url, order);
  const key = line?.licenseKeys[0];
  if (!key) throw new Error('the order has no key');
  soldKey = key;
});

/** A moment as a `datetime-local` input takes it, in the page's own time zone. */
const localInput = (page: Page, iso: string) =>
  page.evaluate((value) => {
    const date = new Date(value);
    const pad = (part: number) => String(part).padStart(2, '0');
    return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
  }, iso);

const eventTypesShown = (page: Page) =>
  page.locator('table[aria-label="Events, newest first"] tbody tr td:nth-child(3)').allTextContents();

describe('the event log', () => {
  it('filters by type, pages by cursor, and opens an order whose state it shows as of a moment', async () => {
    const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
    await page.getByRole('link', { name: 'Event Log' }).click();
    await page.getByRole('heading', { level: 1, name: 'Event Log' }).waitFor();
    await page.locator('table[aria-busy="false"] tbody tr').first().waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The seeded catalogue and its keys alone fill more than one page: Next and Previous walk the cursors.
    const first = await eventTypesShown(page);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Page 2').waitFor();
    await page.waitForFunction(
      (before) =>
        [...document.querySelectorAll('table[aria-label="Events, newest first"] tbody tr td:nth-child(3)')]
          .map((cell) => cell.textContent)
          .join() !== before,
      first.join(),
    );
    await page.getByRole('button', { name: 'Previous' }).click();
    await page.getByText('Page 1').waitFor();

    await page.getByRole('combobox', { name: 'Event type' }).click();
    await page.getByRole('option', { name: 'Order placed', exact: true }).click();
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForFunction(() => {
      const cells = [
        ...document.querySelectorAll('table[aria-label="Events, newest first"] tbody tr td:nth-child(3)'),
      ];
      // The type in plain words, the stored type beneath it as the detail an auditor reads.
      const parts = [...(cells[0]?.children ?? [])].map((part) => part.textContent);
      return cells.length === 1 && parts.join('|') === 'Order placed|OrderCaptured';
    });
    expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);

    await page.getByRole('link', { name: `order-${order.id}` }).click();
    await page.waitForURL((url) => url.pathname === `/admin/audit/orders/${order.id}`);
    const asOf = page.getByRole('region', { name: 'As of' });
    await asOf.getByText('Every unit has its key').waitFor();
    expect(await asOf.getByText(maskedKey(soldKey), { exact: true }).count()).toBe(1);
    await page
      .getByRole('region', { name: 'Event timeline' })
      .getByText('Order placed by Ada Lovelace')
      .waitFor();

    const beforeTheOrder = await localInput(
      page,
      new Date(Date.parse(order.createdAt) - 60_000).toISOString(),
    );
    await asOf.getByLabel('Show the order as it stood at').fill(beforeTheOrder);
    await asOf.getByRole('button', { name: 'Show', exact: true }).click();
    await asOf.getByText(/The order did not exist yet at/).waitFor();

    // The browser reports the 404 the moment before the order answers with; nothing else went wrong.
    expect(errors).toEqual([
      'Failed to load resource: the server responded with a status of 404 (Not Found)',
    ]);
    await close();
  });
});

describe('the event log in the URL', () => {
  it('keeps its page and filters in the URL, says what is wrong with a bad filter, and shows all of an event', async () => {
    const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
    await page.getByRole('link', { name: 'Event Log' }).click();
    await page.locator('table[aria-busy="false"] tbody tr').first().waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Page 2').waitFor();
    await page.waitForURL((url) => url.searchParams.has('pages'));
    await page.locator('table[aria-busy="false"] tbody tr').first().waitFor();
    const secondPage = await eventTypesShown(page);

    await page.reload();
    await page.getByText('Page 2').waitFor();
    await page.locator('table[aria-busy="false"] tbody tr').first().waitFor();
    expect(await eventTypesShown(page)).toEqual(secondPage);

    await page.getByRole('combobox', { name: 'Event type' }).click();
    await page.getByRole('option', { name: 'Order placed', exact: true }).click();
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(
      (url) => url.searchParams.get('type') === 'OrderCaptured' && !url.searchParams.has('pages'),
    );
    await page.getByText('Page 1').waitFor();
    await page.goBack();
    await page.getByText('Page 2').waitFor();
    expect(await page.getByRole('combobox', { name: 'Event type' }).textContent()).toBe('All event types');

    await page.getByLabel('Order id').fill('not-an-order-id');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'The event log could not be loaded' });
    await alert.waitFor();
    expect(await alert.textContent()).not.toMatch(/400|\{"error"/);
    expect(await alert.textContent()).toMatch(/order/i);

    await page.getByRole('button', { name: 'Clear' }).click();
    await page.locator('table[aria-busy="false"] tbody tr').first().waitFor();
    const data = page.locator('table[aria-label="Events, newest first"] tbody tr').first().locator('details');
    await data.locator('summary').click();
    const pre = data.locator('pre');
    expect(await pre.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    expect(JSON.parse((await pre.textContent()) ?? '')).toBeTruthy();
    // The bad filter's refusal is the one failed request.
    expect(errors).toEqual([
      'Failed to load resource: the server responded with a status of 400 (Bad Request)',
    ]);
    await close();
  });
});

describe('the dashboard as of a moment', () => {
  it('shows the figures folded from the log, before and after the order', async () => {
    const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
    await page.getByRole('link', { name: 'Dashboard As Of' }).click();
    await page.getByRole('heading', { level: 1, name: 'Dashboard As Of' }).waitFor();
    await page.getByText(/events folded/).waitFor();
    const totalOrders = page.getByRole('region', { name: 'Total Orders' });
    expect(await totalOrders.textContent()).toContain('1 completed');

    const beforeTheOrder = await localInput(
      page,
      new Date(Date.parse(order.createdAt) - 60_000).toISOString(),
    );
    await page.getByLabel('Show the figures as they stood at').fill(beforeTheOrder);
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    await page.getByText('No orders yet').waitFor();

    // The log holds nothing after now: a future moment is refused with a sentence, the figures shown stay.
    const shown = await page.getByText(/events folded/).textContent();
    const tomorrow = await localInput(page, new Date(Date.now() + 86_400_000).toISOString());
    await page.getByLabel('Show the figures as they stood at').fill(tomorrow);
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    await page.getByText('That moment has not happened yet: pick one up to now.').waitFor();
    expect(await page.getByLabel('Show the figures as they stood at').getAttribute('aria-invalid')).toBe(
      'true',
    );
    expect(await page.getByText(/events folded/).textContent()).toBe(shown);
    // Off the button just clicked: a hovered button's lighter shade is not what axe should judge.
    await page.mouse.move(0, 0);
    expect(await seriousA11yViolations(page)).toEqual([]);

    expect(errors).toEqual([]);
    await close();
  });
});
