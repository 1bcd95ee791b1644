import { maskedKey } from '@licensestore/domain/audit';
import { orderNumber } from '@licensestore/domain/orders/order-number';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { openAdminPage, openStaleAndOtherAdminPages } from './support/admin.js';
import { hold, openPage, PHONE, seriousA11yViolations, toastSaying } from './support/browser.js';
import { shownMoney } from './support/money.js';
import {
  type OpenedItem,
  type PlacedOrder,
  purchasableProducts,
  purchase,
  waitForLicenseKeys,
} from './support/purchases.js';
import { storeAndBrowserForThisFile } from './support/store-and-browser.js';

const e2e = storeAndBrowserForThisFile();

/** Picks an option of a radix select (the Select primitive) by the trigger's accessible name. */
async function choose(page: Page, trigger: string, option: string) {
  await page.getByRole('combobox', { name: trigger }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/**
 * Sets a paid order back to Pending: the store asks first, saying the change only relabels the order, and the
 * admin confirms with Set to Pending.
 */
async function setPaidOrderPending(page: Page, orderId: string) {
  const number = orderNumber(orderId);
  await choose(page, `Status of order ${number}`, 'Pending');
  const question = page.getByRole('alertdialog', { name: `Set paid order ${number} back to Pending?` });
  await question.waitFor();
  expect(await question.textContent()).toContain('Pending changes only its label: no money moves');
  await question.getByRole('button', { name: 'Set to Pending' }).click();
  await question.waitFor({ state: 'detached' });
}

/** Date and time to the second as the viewer's browser writes them: orders of the same day stay apart. */
const localeDateTime = (page: Page, iso: string) =>
  page.evaluate((value) => new Date(value).toLocaleString(), iso);

describe('before the first order', () => {
  it('shows skeleton rows while loading, then the empty texts of Orders and Customers', async () => {
    const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
    const release = await hold(page, (url) => url.pathname === '/api/admin/orders');
    await page.goto('/admin/orders');
    await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
    expect(await page.getByText('Manage customer orders').isVisible()).toBe(true);
    await page.locator('table[aria-busy="true"] [aria-hidden="true"].animate-pulse').first().waitFor();
    release();
    await page.getByText('No orders yet. Orders will appear here when customers make purchases.').waitFor();

    await page.goto('/admin/customers');
    await page.getByRole('heading', { level: 1, name: 'Customers' }).waitFor();
    expect(await page.getByText('View customer information and order history').isVisible()).toBe(true);
    await page.getByText('No customers yet. Customer data will appear here after the first order.').waitFor();
    expect(errors).toEqual([]);
    await close();
  });
});

describe('with orders', () => {
  let first: PlacedOrder;
  let second: PlacedOrder;
  let grace: PlacedOrder;
  let items: OpenedItem[];

  beforeAll(async () => {
    const products = await purchasableProducts(e2e.store.url);
    const [cheapest, next, third] = products as [
      (typeof products)[0],
      (typeof products)[0],
      (typeof products)[0],
    ];
    const ada = { name: 'Ada Lovelace', email: 'ada@example.com' };
    first = await purchase(e2e.store.url, ada, [
      { product: cheapest, quantity: 2 },
      { product: next, quantity: 1 },
    ]);
    items = await waitForLicenseKeys(e2e.store.url, first);
    second = await purchase(e2e.store.url, ada, [{ product: third, quantity: 1 }]);
    grace = await purchase(e2e.store.url, { name: 'Grace Hopper', email: 'grace@example.org' }, [
      { product: next, quantity: 1 },
    ]);
    await waitForLicenseKeys(e2e.store.url, second);
    await waitForLicenseKeys(e2e.store.url, grace);
  });

  it('lists every order with its number, customer, e-mail, total, status badge, date and status drop-down', async () => {
    const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
    await page.goto('/admin/orders');
    const table = page.getByRole('table', { name: 'Orders' });
    await table.getByRole('link', { name: new RegExp(orderNumber(first.id)) }).waitFor();
    const headers = await table.getByRole('columnheader').allTextContents();
    expect(headers).toEqual(['Order ID', 'Customer', 'Email', 'Total', 'Status', 'Date', 'Actions']);

    for (const order of [first, second, grace]) {
      const row = table.getByRole('row').filter({ hasText: orderNumber(order.id) });
      const cells = await row.getByRole('cell').allTextContents();
      expect(cells.slice(0, 6)).toEqual([
        orderNumber(order.id),
        order.customerName,
        order.customerEmail,
        `$${order.total}`,
        'completed',
        await localeDateTime(page, order.createdAt),
      ]);
      const status = row.getByRole('combobox', { name: `Status of order ${orderNumber(order.id)}` });
      expect(await status.textContent()).toBe('Completed');
      expect(
        await row.getByRole('link', { name: new RegExp(orderNumber(order.id)) }).getAttribute('href'),
      ).toBe(`/admin/orders/${order.id}`);
    }
    expect(errors).toEqual([]);
    await close();
  });

  it("changes a status: toast, list refreshed, and the customer's open confirmation page follows by itself and on reload", async () => {
    const customer = await openPage(e2e.browser, e2e.store.url);
    await customer.page.goto(`/order-confirmation/${grace.id}`);
    const customerStatus = customer.page.getByText('completed', { exact: true });
    await customerStatus.waitFor();

    const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
    await page.goto('/admin/orders');
    const name = `Status of order ${orderNumber(grace.id)}`;
    await page.getByRole('combobox', { name }).waitFor();
    // Cancelling releases the keys for good: it asks first, naming that, and changes nothing until confirmed.
    await choose(page, name, 'Cancelled');
    const ask = page.getByRole('alertdialog', { name: `Cancel order ${orderNumber(grace.id)}?` });
    await ask.waitFor();
    expect(await ask.textContent()).toContain(
      'a key already delivered is revoked and can never be used again, any other returns to stock',
    );
    await ask.getByRole('button', { name: 'Keep order' }).click();
    await ask.waitFor({ state: 'detached' });
    expect(await page.getByRole('combobox', { name }).textContent()).toBe('Completed');
    await choose(page, name, 'Cancelled');
    await ask.getByRole('button', { name: 'Cancel order' }).click();
    await toastSaying(page, 'Order status updated successfully');
    await ask.waitFor({ state: 'detached' });
    const row = page.getByRole('row').filter({ hasText: orderNumber(grace.id) });
    await row.getByText('cancelled', { exact: true }).waitFor();
    expect(await page.getByRole('combobox', { name }).textContent()).toBe('Cancelled');

    // Pushed to the open page by the server (no reload), then read again on reload.
    await customer.page.getByText('cancelled', { exact: true }).waitFor();
    await customer.page.reload();
    await customer.page.getByText('cancelled', { exact: true }).waitFor();
    expect(customer.errors).toEqual([]);
    await customer.close();

    // The customer list is refreshed too: a cancelled order no longer counts in what Grace spent.
    await page.getByRole('link', { name: 'Customers' }).click();
    const graceRow = page.getByRole('row').filter({ hasText: 'grace@example.org' });
    await graceRow.waitFor();
    expect((await graceRow.getByRole('cell').allTextContents())[3]).toBe('$0.00');

    expect(errors).toEqual([]);

    // Reopening asks first, saying before anything happens that it takes new keys from stock and emails the buyer;
    // kept cancelled, nothing changes.
    await page.goto('/admin/orders');
    await choose(page, name, 'Completed');
    const reopen = page.getByRole('alertdialog', { name: `Reopen order ${orderNumber(grace.id)}?` });
    await reopen.waitFor();
    const consequence = await reopen.textContent();
    expect(consequence).toContain('it takes new license keys from stock and emails them to the buyer');
    expect(consequence).toContain('If stock is out, it waits in line until keys are imported');
    await reopen.getByRole('button', { name: 'Keep cancelled' }).click();
    await reopen.waitFor({ state: 'detached' });
    await row.getByText('cancelled', { exact: true }).waitFor();
    expect(await page.getByRole('combobox', { name }).textContent()).toBe('Cancelled');
    expect(errors).toEqual([]);
    await close();
  });

  it('derives customers from the orders: name, e-mail, order count, total spent and last order date', async () => {
    const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
    await page.goto('/admin/customers');
    const table = page.getByRole('table', { name: 'Customers' });
    await table.getByRole('cell', { name: 'ada@example.com' }).waitFor();
    expect(await table.getByRole('columnheader').allTextContents()).toEqual([
      'Name',
      'Email',
      'Orders',
      'Total Spent',
      'Last Order',
    ]);
    const cents = (amount: string) => Math.round(Number(amount) * 100);
    const rows = await table.getByRole('row').allTextContents();
    expect(rows).toHaveLength(3);
    expect(await table.getByRole('row').nth(1).getByRole('cell').allTextContents()).toEqual([
      'Grace Hopper',
      'grace@example.org',
      '1',
      // Her only order was cancelled above.
      '$0.00',
      await localeDateTime(page, grace.createdAt),
    ]);
    expect(await table.getByRole('row').nth(2).getByRole('cell').allTextContents()).toEqual([
      'Ada Lovelace',
      'ada@example.com',
      '2',
      shownMoney((cents(first.total) + cents(second.total)) / 100),
      await localeDateTime(page, second.createdAt),
    ]);
    expect(errors).toEqual([]);
    await close();
  });

  describe('the order detail', () => {
    it('opens from the list and shows the order, its lines with masked keys to reveal and copy', async () => {
      const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
      await page.goto('/admin/orders');
      await page.getByRole('link', { name: new RegExp(orderNumber(first.id)) }).click();
      await page.waitForURL((url) => url.pathname === `/admin/orders/${first.id}`);
      await page.getByRole('heading', { level: 1, name: `Order ${orderNumber(first.id)}` }).waitFor();

      const details = page.getByRole('region', { name: 'Order details' });
      await details.getByText(first.customerName).waitFor();
      for (const text of [
        first.customerEmail,
        `$${first.total}`,
        await localeDateTime(page, first.createdAt),
      ]) {
        expect(await details.getByText(text, { exact: true }).isVisible()).toBe(true);
      }
      expect(
        await details
          .getByRole('combobox', { name: `Status of order ${orderNumber(first.id)}` })
          .textContent(),
      ).toBe('Completed');

      const lines = page.getByRole('region', { name: 'Items and license keys' });
      const [line] = items as [OpenedItem];
      const key = line.licenseKeys[0] as string;
      const keyList = lines.getByRole('list', { name: `License keys of ${line.productName}` });
      await keyList.waitFor();
      expect(await keyList.textContent()).not.toContain(key);
      await keyList.getByText(maskedKey(key)).first().waitFor();

      await lines.getByRole('button', { name: `Reveal license key 1 of ${line.productName}` }).click();
      await keyList.getByText(key).waitFor();
      const hide = lines.getByRole('button', { name: `Hide license key 1 of ${line.productName}` });
      expect(await hide.getAttribute('aria-pressed')).toBe('true');
      await hide.click();
      expect(await keyList.getByText(key).count()).toBe(0);

      await lines.getByRole('button', { name: `Copy license key 1 of ${line.productName}` }).click();
      await toastSaying(page, 'Copied!', 'License key copied to clipboard.');
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);

      // The order's audit history (its state as of any moment) is one click away.
      await page.getByRole('link', { name: 'Audit history' }).click();
      await page.waitForURL((url) => url.pathname === `/admin/audit/orders/${first.id}`);
      await page
        .getByRole('heading', { level: 1, name: `Order ${orderNumber(first.id)}: history` })
        .waitFor();
      expect(errors).toEqual([]);
      await close();
    });

    it("lists the order's events oldest first with when, who and what, keys masked", async () => {
      const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
      await page.goto(`/admin/orders/${first.id}`);
      const timeline = page.getByRole('list', { name: 'Order events, oldest first' });
      await timeline.waitFor();
      const titles = await timeline.getByRole('heading', { level: 3 }).allTextContents();
      expect(titles.slice(0, 3)).toEqual(['Checkout started', 'Payment taken at checkout', 'Order placed']);
      // Two lines: each asks its product's inventory, is given keys, and the order records them.
      expect(titles.filter((title) => title === 'License keys requested')).toHaveLength(2);
      expect(titles.filter((title) => title === 'License keys assigned')).toHaveLength(2);
      expect(titles.filter((title) => title === 'License keys recorded on the order')).toHaveLength(2);
      expect(titles.indexOf('Order fulfilled')).toBeGreaterThan(
        titles.lastIndexOf('License keys recorded on the order'),
      );
      expect(titles.indexOf('License keys requested')).toBeGreaterThan(titles.indexOf('Order placed'));

      const text = (await timeline.textContent()) ?? '';
      for (const item of items) {
        for (const key of item.licenseKeys) {
          expect(text).not.toContain(key);
          expect(text).toContain(maskedKey(key));
        }
      }
      expect(text).not.toMatch(/v1\.[0-9a-f]{8}\./);
      const captured = timeline.getByRole('listitem').filter({ hasText: 'Order placed' });
      expect(await captured.textContent()).toContain('By the customer');
      expect(await captured.locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/);
      await captured.getByText('Details', { exact: true }).click();
      expect(await captured.getByText('OrderCaptured', { exact: true }).isVisible()).toBe(true);
      expect(await captured.getByText(`order-${first.id} #0`, { exact: true }).isVisible()).toBe(true);
      expect(await captured.locator('pre').isVisible()).toBe(true);
      expect(errors).toEqual([]);
      await close();
    });

    it('resends the delivery e-mail: toast, and the request joins the timeline', async () => {
      const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
      await page.goto(`/admin/orders/${first.id}`);
      const timeline = page.getByRole('list', { name: 'Order events, oldest first' });
      await timeline.waitFor();
      expect(await timeline.getByText('Delivery email requested again').count()).toBe(0);
      await page.getByRole('button', { name: 'Resend delivery email' }).click();
      await toastSaying(page, 'Delivery email requested', first.customerEmail);
      const requested = timeline.getByRole('listitem').filter({ hasText: 'Delivery email requested again' });
      await requested.waitFor();
      expect(await requested.textContent()).toContain('By admin');
      expect(errors).toEqual([]);
      await close();
    });

    it('changes the status from the detail page; its timeline follows', async () => {
      const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
      await page.goto(`/admin/orders/${second.id}`);
      const name = `Status of order ${orderNumber(second.id)}`;
      await page.getByRole('combobox', { name }).waitFor();
      await setPaidOrderPending(page, second.id);
      await toastSaying(page, 'Order status updated successfully');
      const details = page.getByRole('region', { name: 'Order details' });
      await details.getByText('pending', { exact: true }).waitFor();
      const changed = page
        .getByRole('listitem')
        .filter({ hasText: 'Status changed from completed to pending' });
      await changed.waitFor();
      expect(await changed.textContent()).toContain('By admin');
      expect(errors).toEqual([]);
      await close();
    });

    it('refuses a status chosen on an order page that missed a change made in another tab, and shows that change', async () => {
      const { stale, other, close } = await openStaleAndOtherAdminPages(e2e.browser, e2e.store.url);
      try {
        const name = `Status of order ${orderNumber(first.id)}`;
        for (const tab of [stale.page, other.page]) {
          await tab.goto(`/admin/orders/${first.id}`);
          await tab.getByRole('combobox', { name }).waitFor();
        }
        expect(await stale.page.getByRole('combobox', { name }).textContent()).toBe('Completed');

        await setPaidOrderPending(other.page, first.id);
        await toastSaying(other.page, 'Order status updated successfully');

        // The stale tab still shows the order paid, so it asks too; the change confirmed there is refused.
        const refused = stale.page.waitForResponse((response) => response.request().method() === 'PATCH');
        await setPaidOrderPending(stale.page, first.id);
        expect((await refused).status()).toBe(412);
        await toastSaying(
          stale.page,
          'Not changed',
          'This order was changed by someone else since you opened it; it now shows the changes. Choose again if you still want to.',
        );
        const details = stale.page.getByRole('region', { name: 'Order details' });
        await details.getByText('pending', { exact: true }).waitFor();
        // The refused change is the one failed request this tab reports.
        expect(stale.errors.filter((error) => !error.includes('412'))).toEqual([]);
        expect(other.errors).toEqual([]);
      } finally {
        await close();
      }
    });

    it('says Order Not Found for an unknown order', async () => {
      const { page, close } = await openAdminPage(e2e.browser, e2e.store.url);
      await page.goto('/admin/orders/00000000-0000-4000-8000-000000000000');
      await page.getByRole('heading', { name: 'Order Not Found' }).waitFor();
      expect(await page.getByText("The order you're looking for doesn't exist.").isVisible()).toBe(true);
      await close();
    });
  });

  it('lists orders and customers as cards on a phone, and the page does not scroll sideways', async () => {
    const { page, close } = await openAdminPage(e2e.browser, e2e.store.url, { phone: true });
    for (const [path, list] of [
      ['/admin/orders', 'Orders'],
      ['/admin/customers', 'Customers'],
    ] as const) {
      await page.goto(path);
      await page.getByRole('list', { name: list }).getByRole('link').first().waitFor();
      expect(await page.getByRole('table').count()).toBe(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(PHONE.width);
    }
    await page.goto(`/admin/orders/${first.id}`);
    await page.getByRole('list', { name: 'Order events, oldest first' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(PHONE.width);
    await close();
  });

  it('reaches the status drop-down by keyboard and changes it with the keys', async () => {
    const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
    await page.goto('/admin/orders');
    const name = `Status of order ${orderNumber(second.id)}`;
    const trigger = page.getByRole('combobox', { name });
    await trigger.waitFor();
    await page.getByRole('link', { name: new RegExp(orderNumber(second.id)) }).focus();
    await page.keyboard.press('Tab');
    expect(await trigger.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await trigger.textContent()).toBe('Pending');
    // Each key waits for the list to have moved the focus: a key pressed before the list has focused its current
    // option is lost, and the choice would land on another status, or on the current one (no change, no toast).
    const focusedOption = () =>
      page.evaluate(() =>
        document.activeElement?.getAttribute('role') === 'option' ? document.activeElement.textContent : null,
      );
    await page.keyboard.press('Enter');
    await expect.poll(focusedOption).toBe('Pending');
    await page.keyboard.press('ArrowDown');
    await expect.poll(focusedOption).toBe('Completed');
    await page.keyboard.press('ArrowDown');
    await expect.poll(focusedOption).toBe('Cancelled');
    await page.keyboard.press('Enter');
    // The confirmation starts on Keep order, so a second Enter by habit cancels nothing.
    const keep = page.getByRole('button', { name: 'Keep order' });
    await expect.poll(() => keep.evaluate((element) => element === document.activeElement)).toBe(true);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await toastSaying(page, 'Order status updated successfully');
    expect(await trigger.textContent()).toBe('Cancelled');
    expect(errors).toEqual([]);
    await close();
  });

  it('has no serious accessibility violations on Orders, an order and Customers, in either theme', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const { page, close } = await openAdminPage(e2e.browser, e2e.store.url, { colorScheme });
      const screens = [
        ['/admin/orders', () => page.getByRole('table', { name: 'Orders' }).getByRole('link').first()],
        [`/admin/orders/${first.id}`, () => page.getByRole('list', { name: 'Order events, oldest first' })],
        ['/admin/customers', () => page.getByRole('cell', { name: 'ada@example.com' })],
      ] as const;
      for (const [path, ready] of screens) {
        await page.goto(path);
        await ready().waitFor();
        expect({ path, colorScheme, violations: await seriousA11yViolations(page) }).toEqual({
          path,
          colorScheme,
          violations: [],
        });
      }
      await close();
    }
  });
});
