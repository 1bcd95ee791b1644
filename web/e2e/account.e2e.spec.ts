import { randomUUID } from 'node:crypto';
import type { OrderView } from '@licensestore/domain';
import { orderNumber } from '@licensestore/domain/orders/order-number';
import type { Locator } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { mailFiles } from '../../test/support/mail.js';
import { openPage, PHONE, seriousA11yViolations, type TestPage, toastSaying } from './support/browser.js';
import { signInAsCustomer } from './support/customer-session.js';
import { shownMoney } from './support/money.js';
import { type OpenedItem, purchasableProducts, purchase, waitForLicenseKeys } from './support/purchases.js';
import { storeAndBrowserForThisFile } from './support/store-and-browser.js';

const e2e = storeAndBrowserForThisFile();

/** The customer with orders; their address is typed at checkout in another case than they sign in with. */
const ada = { name: 'Ada Lovelace', email: `ada-${randomUUID()}@example.com` };
const otherCustomer = { name: 'Grace Hopper', email: `grace-${randomUUID()}@example.com` };

/** Ada's orders, oldest first, each as the API shows it once its keys are delivered. */
const adasOrders: { order: OrderView; items: OpenedItem[] }[] = [];
let othersOrder: OrderView;

/** Dates are asserted in UTC: the browser is told to live there. */
const TIME_ZONE = 'UTC';
const longDate = (iso: string) =>
  new Intl.DateTimeFormat('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: TIME_ZONE,
  }).format(new Date(iso));

beforeAll(async () => {
  const [cheapest, next] = await purchasableProducts(e2e.store.url);
  if (!cheapest || !next) throw new Error('the demo catalogue has fewer than two products in stock');
  const buyer = { ...ada, email: ada.email.toUpperCase() };
  for (const lines of [
    [{ product: cheapest, quantity: 1 }],
    [
      { product: next, quantity: 2 },
      { product: cheapest, quantity: 1 },
    ],
  ]) {
    const placed = await purchase(e2e.store.url, buyer, lines);
    const items = await waitForLicenseKeys(e2e.store.url, placed);
    // The status once delivered, as the page will show it.
    const order = (await (
      await fetch(`${e2e.store.url}/api/orders/${placed.id}`, { headers: { cookie: placed.accessCookie } })
    ).json()) as OrderView;
    adasOrders.push({ order, items });
  }
  othersOrder = await purchase(e2e.store.url, otherCustomer, [{ product: cheapest, quantity: 1 }]);
});

/** A page in a fresh context, signed in as `email` when given. */
async function accountPage(
  options: { email?: string; colorScheme?: 'light' | 'dark'; phone?: boolean } = {},
) {
  const testPage = await openPage(e2e.browser, e2e.store.url, {
    timezoneId: TIME_ZONE,
    colorScheme: options.colorScheme ?? 'light',
    ...(options.phone ? { viewport: PHONE } : {}),
  });
  if (options.email) await signInAsCustomer(testPage.page.context(), e2e.store, options.email);
  return testPage;
}

const orderCard = (page: TestPage['page'], orderId: string): Locator =>
  page.getByRole('article', { name: `Order ${orderNumber(orderId)}` });

describe('My Orders when signed out', () => {
  it('asks the visitor to sign in at /api/login, and the header offers no My Orders link', async () => {
    const { page, errors, close } = await accountPage();
    await page.goto('/account');
    const main = page.getByRole('main');
    await main.getByRole('heading', { name: 'Sign in to see your orders' }).waitFor();
    expect(await main.getByRole('heading', { name: 'My Orders', level: 1 }).isVisible()).toBe(true);
    expect(await main.getByRole('link', { name: 'Sign In' }).getAttribute('href')).toBe('/api/login');
    expect(await page.getByRole('link', { name: 'My Orders' }).count()).toBe(0);
    expect(await page.getByRole('article').count()).toBe(0);
    expect(await page.title()).toBe('My Orders | LicenseStore');
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex, nofollow');
    expect(errors).toEqual([]);
    await close();
  });
});

describe('My Orders when signed in', () => {
  it('shows My Orders, the avatar and Logout (to /api/logout) in the header', async () => {
    const { page, errors, close } = await accountPage({ email: ada.email });
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'My Orders' }).waitFor();
    expect(await page.getByRole('img', { name: 'Your profile' }).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Logout' }).getAttribute('href')).toBe('/api/logout');
    expect(await page.getByRole('link', { name: 'Sign In' }).count()).toBe(0);
    await nav.getByRole('link', { name: 'My Orders' }).click();
    await page.waitForURL('**/account');
    await page.getByRole('article').first().waitFor();
    expect(errors).toEqual([]);
    await close();
  });

  it('lists My Orders in the mobile menu', async () => {
    const { page, close } = await accountPage({ email: ada.email, phone: true });
    await page.goto('/');
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('navigation', { name: 'Mobile' });
    // The menu may open before the session is known: My Orders appears once it is.
    await menu.getByRole('link', { name: 'My Orders' }).waitFor();
    expect(await menu.getByRole('link', { name: 'Sign In' }).count()).toBe(0);
    await menu.getByRole('link', { name: 'My Orders' }).click();
    await page.waitForURL('**/account');
    await page.getByRole('heading', { name: 'My Orders', level: 1 }).waitFor();
    await close();
  });

  it('wraps a license key on a phone only between its groups, never inside one', async () => {
    const { page, close } = await accountPage({ email: ada.email, phone: true });
    await page.goto('/account');
    await page.getByRole('article').first().waitFor();
    const keys = page.getByRole('article').locator('code', { hasText: /-/ });
    await keys.first().waitFor();
    // Narrower than any key, so every key must wrap: a group on one line has one box, a broken group two. Each
    // group is measured as a range of the key's text, whatever elements draw it.
    const wrapped = await keys.evaluateAll((codes) =>
      codes.map((code) => {
        (code as HTMLElement).style.width = '8ch';
        const letters: Array<{ node: Text; offset: number }> = [];
        const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          for (let offset = 0; offset < (node.textContent ?? '').length; offset++) {
            letters.push({ node: node as Text, offset });
          }
        }
        const text = letters.map(({ node, offset }) => node.data[offset]).join('');
        const boxes: number[] = [];
        const tops = new Set<number>();
        let start = 0;
        for (const group of text.split('-')) {
          const range = document.createRange();
          const first = letters[start] as { node: Text; offset: number };
          const last = letters[start + group.length - 1] as { node: Text; offset: number };
          range.setStart(first.node, first.offset);
          range.setEnd(last.node, last.offset + 1);
          const rects = [...range.getClientRects()].filter((rect) => rect.width > 0);
          boxes.push(new Set(rects.map((rect) => rect.top)).size);
          for (const rect of rects) tops.add(rect.top);
          start += group.length + 1;
        }
        return { boxes, lines: tops.size };
      }),
    );
    expect(wrapped.length).toBeGreaterThan(0);
    for (const { boxes, lines } of wrapped) {
      expect(lines).toBeGreaterThan(1);
      expect(new Set(boxes)).toEqual(new Set([1]));
    }
    await close();
  });

  it("lists only the customer's own orders, newest first, with date, status, total, items and license keys", async () => {
    // Signed in with the address in another case than the one typed at checkout.
    const { page, errors, close } = await accountPage({ email: ada.email });
    await page.goto('/account');
    await page.getByRole('article').first().waitFor();

    const headings = await page.getByRole('article').getByRole('heading', { level: 2 }).allTextContents();
    const newestFirst = [...adasOrders].reverse();
    expect(headings).toEqual(newestFirst.map(({ order }) => `Order ${orderNumber(order.id)}`));
    expect(await orderCard(page, othersOrder.id).count()).toBe(0);

    for (const { order, items } of newestFirst) {
      const card = orderCard(page, order.id);
      expect(await card.getByText(longDate(order.createdAt), { exact: true }).isVisible()).toBe(true);
      expect(await card.getByText(order.status, { exact: true }).isVisible()).toBe(true);
      expect(await card.getByText(`Total: ${shownMoney(order.total)}`, { exact: true }).isVisible()).toBe(
        true,
      );
      expect(await card.getByRole('heading', { name: 'Items', level: 3 }).isVisible()).toBe(true);
      const rows = card.getByRole('listitem').filter({ has: page.getByText('Quantity:') });
      expect(await rows.count()).toBe(items.length);
      for (const [index, item] of items.entries()) {
        const row = rows.nth(index);
        expect(await row.getByText(item.productName, { exact: true }).isVisible()).toBe(true);
        expect(await row.getByText(`Quantity: ${item.quantity}`, { exact: true }).isVisible()).toBe(true);
        expect(await row.getByText(shownMoney(item.price), { exact: true }).isVisible()).toBe(true);
        expect(await row.getByText('License Key:', { exact: true }).isVisible()).toBe(true);
        expect(await row.locator('code').allTextContents()).toEqual(item.licenseKeys);
      }
    }
    expect(errors).toEqual([]);
    await close();
  });

  it('says No orders yet to a customer without any', async () => {
    const { page, errors, close } = await accountPage({ email: `new-${randomUUID()}@example.com` });
    await page.goto('/account');
    await page.getByRole('heading', { name: 'No orders yet' }).waitFor();
    expect(await page.getByText('When you make a purchase, your orders will appear here.').isVisible()).toBe(
      true,
    );
    expect(await page.getByRole('article').count()).toBe(0);
    expect(errors).toEqual([]);
    await close();
  });

  it('shows three skeleton cards while the orders load', async () => {
    const { page, close } = await accountPage({ email: ada.email });
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Hold the answer until the skeletons have been seen, so the check cannot race the network.
    await page.route('**/api/my-orders', async (route) => {
      await released;
      await route.continue();
    });
    await page.goto('/account');
    await page.getByRole('status', { name: 'Loading your orders' }).waitFor();
    expect(await page.getByTestId('order-card-skeleton').count()).toBe(3);
    release();
    await page.getByRole('article').first().waitFor();
    expect(await page.getByTestId('order-card-skeleton').count()).toBe(0);
    await close();
  });

  it('has no serious accessibility violations, in either theme, with orders or signed out', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const email of [ada.email, undefined]) {
        const { page, close } = await accountPage({ email, colorScheme });
        await page.goto('/account');
        await page.getByRole('heading', { level: 2 }).first().waitFor();
        expect({
          colorScheme,
          signedIn: Boolean(email),
          violations: await seriousA11yViolations(page),
        }).toEqual({
          colorScheme,
          signedIn: Boolean(email),
          violations: [],
        });
        await close();
      }
    }
  });
});

describe('My Orders self-service', () => {
  const newest = () => adasOrders[adasOrders.length - 1] as (typeof adasOrders)[number];

  it('copies a key, saying Copied on the button itself', async () => {
    const { page, errors, close } = await accountPage({ email: ada.email });
    await page.goto('/account');
    const { order, items } = newest();
    const [item] = items;
    const key = item?.licenseKeys[0] as string;
    const copy = orderCard(page, order.id).getByRole('button', {
      name: `Copy license key ${key} for ${item?.productName}`,
    });
    await copy.click();
    await copy.getByText('Copied', { exact: true }).waitFor();
    await toastSaying(page, 'Copied!', 'License key copied to clipboard.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await copy.getByText('Copy', { exact: true }).waitFor({ timeout: 5000 });
    expect(errors).toEqual([]);
    await close();
  });

  it("links each order to its page, which opens its keys to the order's owner", async () => {
    const { page, errors, close } = await accountPage({ email: ada.email });
    await page.goto('/account');
    const { order, items } = newest();
    await orderCard(page, order.id).getByRole('link', { name: 'View order' }).click();
    await page.waitForURL(`**/order-confirmation/${order.id}`);
    await page.getByRole('heading', { name: 'Order Confirmed!' }).waitFor();
    for (const key of items.flatMap((item) => item.licenseKeys)) {
      await page.getByText(key, { exact: true }).waitFor();
    }
    expect(errors).toEqual([]);
    await close();
  });

  it('e-mails the keys again on request, three times an hour, then says why not', async () => {
    const { page, errors, close } = await accountPage({ email: ada.email });
    const mailsToAda = async () =>
      [...(await mailFiles(e2e.store.dataDir)).values()].filter((mail) =>
        mail.to.some((address) => address.toLowerCase() === ada.email),
      ).length;
    await page.goto('/account');
    const card = orderCard(page, newest().order.id);
    const resend = card.getByRole('button', { name: 'Email my keys again' });
    const before = await mailsToAda();
    for (let time = 1; time <= 3; time += 1) {
      await resend.click();
      await card.getByText(`Your keys are on their way to ${ada.email.toUpperCase()}.`).waitFor();
      await expect.poll(mailsToAda, { timeout: 30_000 }).toBe(before + time);
    }
    await resend.click();
    await card
      .getByText('The keys of this order were emailed 3 times in the last hour.', { exact: false })
      .waitFor();
    expect(await card.getByText('Your keys are on their way').count()).toBe(0);
    // Chromium logs the 429 answer itself; nothing else went wrong.
    expect(errors.filter((error) => !error.includes('429'))).toEqual([]);
    await close();
  });
});
