import type { ReviewView } from '@licensestore/contract/risk';
import type { Product } from '@licensestore/domain';
import type { Page } from 'playwright-core';
import { describe, expect, it, vi } from 'vitest';
import { freshLicenseKey } from '../../test/support/license-keys.js';
import { mailFiles } from '../../test/support/mail.js';
import { openAdminPage } from './support/admin.js';
import { adminCall } from './support/admin-call.js';
import { openPage, toastSaying } from './support/browser.js';
import { priceOf } from './support/checkout-page.js';
import { holdOrderAccess, type PlacedOrder, purchasableProducts, purchase } from './support/purchases.js';
import { storeAndBrowserForThisFile } from './support/store-and-browser.js';

// Each test buys from a client address of its own (X-Forwarded-For, trusted here): velocity rules count by address.
const e2e = storeAndBrowserForThisFile(() => ({ TRUST_PROXY: 'true' }));

const RULES_OFF = {
  holdAtOrAbove: null,
  firstOrderAtOrAbove: null,
  velocity: null,
  blockedEmailDomains: [],
  productQuantityAtOrAbove: null,
};

const buyer = (name: string) => ({ name, email: `${name.toLowerCase()}-${Date.now()}@example.com` });

const firstProduct = async (): Promise<Product> => {
  const [product] = await purchasableProducts(e2e.store.url);
  if (!product) throw new Error('no product in stock');
  return product;
};

const availableKeys = async (page: Page) =>
  (await adminCall<{ availableKeys: number }>(page, 'GET', '/api/admin/dashboard')).availableKeys;

/** The e-mail to `address` whose subject matches, from the files the store writes into its DATA_DIR. */
const mailTo = (address: string, subject: RegExp) =>
  vi.waitFor(
    async () => {
      const mail = [...(await mailFiles(e2e.store.dataDir)).values()].find(
        (candidate) => candidate.to.includes(address) && subject.test(candidate.subject),
      );
      if (!mail) throw new Error(`no e-mail ${subject} to ${address} yet`);
      return mail;
    },
    { timeout: 30_000, interval: 200 },
  );

/** The buyer's confirmation page of the order, opened in a browser that paid for it. */
async function buyerPage(order: PlacedOrder) {
  const buyerTab = await openPage(e2e.browser, e2e.store.url);
  await holdOrderAccess(buyerTab.page, e2e.store.url, order);
  await buyerTab.page.goto(`/order-confirmation/${order.id}`);
  return buyerTab;
}

/** Sets the rules on the Risk Rules screen as an admin does: `fill` the fields, then save. */
async function setRulesOnScreen(page: Page, fill: (page: Page) => Promise<void>) {
  await adminCall(page, 'PUT', '/api/admin/risk-rules', RULES_OFF);
  await page.goto('/admin/risk');
  await page.getByRole('button', { name: 'Save rules' }).waitFor();
  await fill(page);
  await page.getByRole('button', { name: 'Save rules' }).click();
  await toastSaying(page, 'Risk rules saved');
}

const reviewRow = (page: Page, order: PlacedOrder) =>
  page.getByRole('row').filter({ hasText: `#${order.id.slice(0, 8).toUpperCase()}` });

describe('Risky orders held for review', () => {
  it('held then approved: the buyer sees an honest page, then the keys, and gets both e-mails', async () => {
    const product = await firstProduct();
    const admin = await openAdminPage(e2e.browser, e2e.store.url);
    await setRulesOnScreen(admin.page, (page) =>
      page.getByLabel('Hold orders of at least ($)').fill(product.salePrice ?? product.regularPrice),
    );
    const ada = buyer('Ada');
    const order = await purchase(e2e.store.url, ada, [{ product, quantity: 1 }], { from: '10.0.0.1' });
    expect(order.reviewStatus).toBe('held');

    const shopper = await buyerPage(order);
    await shopper.page.getByRole('heading', { level: 1, name: 'Your order is being checked' }).waitFor();
    expect(await shopper.page.getByText('Order Confirmed!').count()).toBe(0);
    await shopper.page.getByText('License key will be emailed once the order has been checked.').waitFor();
    const checking = await mailTo(ada.email, /is being checked$/);
    expect(checking.text).toContain('This usually takes no longer than 1 hour.');

    await admin.page.goto('/admin/reviews');
    const row = reviewRow(admin.page, order);
    await row.getByText('Order total').waitFor();
    await row.getByRole('button', { name: /^Approve order/ }).click();
    await toastSaying(admin.page, 'Order approved');

    // The open page turns into the confirmation by itself, keys shown, and the keys are e-mailed.
    await shopper.page
      .getByRole('heading', { level: 1, name: 'Order Confirmed!' })
      .waitFor({ timeout: 30_000 });
    await shopper.page.getByRole('list', { name: `License keys for ${product.name}` }).waitFor();
    await mailTo(ada.email, /^Your license keys/);
    expect(shopper.errors).toEqual([]);
    expect(admin.errors).toEqual([]);
    await shopper.close();
    await admin.close();
  });

  it('held then rejected: the money goes back, the key returns to stock, and the buyer is told why', async () => {
    const product = await firstProduct();
    const admin = await openAdminPage(e2e.browser, e2e.store.url);
    await setRulesOnScreen(admin.page, (page) =>
      page.getByLabel('Blocked email domains').fill('rejected.example'),
    );
    const before = await availableKeys(admin.page);
    const grace = { name: 'Grace', email: `grace-${Date.now()}@rejected.example` };
    const order = await purchase(e2e.store.url, grace, [{ product, quantity: 1 }], { from: '10.0.0.2' });
    // Its key is set aside from stock while it waits.
    await expect.poll(() => availableKeys(admin.page), { timeout: 30_000, interval: 200 }).toBe(before - 1);

    await admin.page.goto('/admin/reviews');
    await reviewRow(admin.page, order)
      .getByRole('button', { name: /^Reject order/ })
      .click();
    const dialog = admin.page.getByRole('dialog', { name: /^Reject order/ });
    await dialog.getByLabel('Reason').fill('The card was reported stolen');
    await dialog.getByRole('button', { name: 'Reject and refund' }).click();
    await toastSaying(admin.page, 'Order rejected');

    await expect.poll(() => availableKeys(admin.page), { timeout: 30_000, interval: 200 }).toBe(before);
    const rejected = await mailTo(grace.email, /was not approved$/);
    expect(rejected.text).toContain('The card was reported stolen');
    await mailTo(grace.email, /^Refund of /);
    const shopper = await buyerPage(order);
    await shopper.page.getByRole('heading', { level: 1, name: 'Order not approved' }).waitFor();
    expect(shopper.errors).toEqual([]);
    await shopper.close();
    await admin.close();
  });

  it('holds the fifth order from one client address within the window', async () => {
    const product = await firstProduct();
    const admin = await openAdminPage(e2e.browser, e2e.store.url);
    await setRulesOnScreen(admin.page, async (page) => {
      await page.getByLabel('Velocity window (minutes)').fill('10');
      await page.getByLabel('Hold after this many orders in the window').fill('4');
    });
    const statuses: Array<string | null> = [];
    for (let n = 0; n < 5; n++) {
      const order = await purchase(e2e.store.url, buyer(`Burst${n}`), [{ product, quantity: 1 }], {
        from: '10.0.0.3',
      });
      statuses.push(order.reviewStatus);
    }
    expect(statuses).toEqual([null, null, null, null, 'held']);
    const held = await adminCall<ReviewView[]>(admin.page, 'GET', '/api/admin/reviews');
    expect(held.find((review) => review.rules.includes('velocity-orders'))?.client?.ordersLastDay).toBe(5);
    await admin.close();
  });

  it('approve and reject at once: one wins, the other is told which', async () => {
    const product = await firstProduct();
    const first = await openAdminPage(e2e.browser, e2e.store.url);
    await setRulesOnScreen(first.page, (page) =>
      page.getByLabel('Blocked email domains').fill('race.example'),
    );
    const order = await purchase(
      e2e.store.url,
      { name: 'Racer', email: `racer-${Date.now()}@race.example` },
      [{ product, quantity: 1 }],
      { from: '10.0.0.4' },
    );
    const second = await openAdminPage(e2e.browser, e2e.store.url);
    for (const { page } of [first, second]) await page.goto('/admin/reviews');
    await reviewRow(second.page, order)
      .getByRole('button', { name: /^Reject order/ })
      .click();
    const dialog = second.page.getByRole('dialog', { name: /^Reject order/ });
    await dialog.getByLabel('Reason').fill('Looks like a stolen card');
    await Promise.all([
      reviewRow(first.page, order)
        .getByRole('button', { name: /^Approve order/ })
        .click(),
      dialog.getByRole('button', { name: 'Reject and refund' }).click(),
    ]);
    /** Whether the page's decision was refused, from the toast it shows. */
    const refusedOn = async (page: Page) =>
      (
        await page
          .getByRole('status')
          .filter({ hasText: /Order approved|Order rejected|Not decided/ })
          .first()
          .innerText()
      ).includes('Not decided');
    const refusals = [await refusedOn(first.page), await refusedOn(second.page)];
    expect(refusals.filter(Boolean)).toHaveLength(1);
    const refused = (refusals[0] ? first.page : second.page) as Page;
    await refused
      .getByRole('status')
      .filter({
        hasText: /was already (approved|rejected) by someone else: it cannot also be (approved|rejected)\./,
      })
      .waitFor();
    await first.close();
    await second.close();
  });

  it('a held order whose keys ran out meanwhile gets them e-mailed once approved and restocked', async () => {
    const product = (await purchasableProducts(e2e.store.url))[3];
    if (!product) throw new Error('no fourth product in stock');
    const admin = await openAdminPage(e2e.browser, e2e.store.url);
    await setRulesOnScreen(admin.page, (page) =>
      page.getByLabel('Blocked email domains').fill('restock.example'),
    );
    // The demo stock is 20 keys a product: two orders of 10 take them all, and the held one waits for a key.
    for (const n of [1, 2]) {
      await purchase(e2e.store.url, buyer(`Stock${n}`), [{ product, quantity: 10 }], { from: `10.0.2.${n}` });
    }
    const lastBuyer = { name: 'Hopper', email: `hopper-${Date.now()}@restock.example` };
    const order = await purchase(e2e.store.url, lastBuyer, [{ product, quantity: 1 }], { from: '10.0.0.5' });
    await admin.page.goto('/admin/reviews');
    await reviewRow(admin.page, order)
      .getByRole('button', { name: /^Approve order/ })
      .click();
    await toastSaying(admin.page, 'Order approved');
    await adminCall(admin.page, 'POST', '/api/license-keys', {
      productId: product.id,
      key: freshLicenseKey(),
    });
    const delivery = await mailTo(lastBuyer.email, /^Your license keys/);
    expect(
      delivery.text.match(/[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}/g)?.length ?? 0,
    ).toBeGreaterThan(0);
    await admin.close();
  });

  it('what-if: a draft tried on the last 12 months answers what it would have held, as tables and a chart', async () => {
    const product = await firstProduct();
    const admin = await openAdminPage(e2e.browser, e2e.store.url);
    await adminCall(admin.page, 'PUT', '/api/admin/risk-rules', RULES_OFF);
    // No other order of this file has an address at whatif.example: the draft holds exactly these two.
    for (const n of [1, 2]) {
      const bulk = { name: `Bulk${n}`, email: `bulk${n}-${Date.now()}@whatif.example` };
      await purchase(e2e.store.url, bulk, [{ product, quantity: 3 }], { from: `10.0.1.${n}` });
    }
    await admin.page.goto('/admin/risk');
    await admin.page.getByLabel('Blocked email domains').fill('whatif.example');
    await admin.page.getByRole('button', { name: 'Try on the last 12 months' }).click();
    const perRule = admin.page.getByRole('table', { name: 'Held per rule' });
    const heldValue = (priceOf(product) * 6).toFixed(2);
    await perRule
      .getByRole('row')
      .filter({ hasText: 'Blocked email domain' })
      .filter({ hasText: '2' })
      .waitFor();
    await admin.page.getByTestId('what-if-chart').waitFor();
    const run = await adminCall<{ held: number; heldValue: string; perMonth: unknown[] }>(
      admin.page,
      'POST',
      '/api/admin/risk-rules/what-if',
      { draft: { blockedEmailDomains: ['whatif.example'] } },
    );
    expect(run).toMatchObject({ held: 2, heldValue });
    expect(run.perMonth).toHaveLength(1);
    expect(admin.errors).toEqual([]);
    await admin.close();
  });
});
