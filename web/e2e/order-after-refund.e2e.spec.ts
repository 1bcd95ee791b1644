import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Product, RefundableUnitView } from '@licensestore/domain';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailFiles, type ReadMail } from '../../test/support/mail.js';
import { openAdminPage } from './support/admin.js';
import { adminCall } from './support/admin-call.js';
import { openPage, PHONE, type TestPage } from './support/browser.js';
import { signInAsCustomer } from './support/customer-session.js';
import { shownMoney } from './support/money.js';
import {
  holdOrderAccess,
  issuedReceiptNumber,
  type PlacedOrder,
  purchasableProducts,
  purchase,
  waitForLicenseKeys,
} from './support/purchases.js';
import { storeAndBrowserForThisFile } from './support/store-and-browser.js';

const e2e = storeAndBrowserForThisFile();
let product: Product;
let admin: TestPage;
const ada = { name: 'Ada Lovelace', email: 'ada.refunds@example.com' };
const SHOTS = join(tmpdir(), 'order-after-refund');

beforeAll(async () => {
  [product] = (await purchasableProducts(e2e.store.url)) as [Product];
  admin = await openAdminPage(e2e.browser, e2e.store.url);
  await mkdir(SHOTS, { recursive: true });
}, 60_000);

afterAll(async () => {
  await admin?.close();
});

/** A paid order of two units whose keys and receipt have arrived. */
async function deliveredOrder(): Promise<PlacedOrder & { receiptNumber: string }> {
  const order = await purchase(e2e.store.url, ada, [{ product, quantity: 2 }]);
  await waitForLicenseKeys(e2e.store.url, order);
  return { ...order, receiptNumber: await issuedReceiptNumber(e2e.store.url, order) };
}

/** An admin refunds `count` of the order's units (PayPal's emulator completes it at once). */
async function refundUnits(order: PlacedOrder, count: number) {
  const units = await adminCall<RefundableUnitView[]>(
    admin.page,
    'GET',
    `/api/orders/${order.id}/refundable-units`,
  );
  await adminCall(admin.page, 'POST', `/api/orders/${order.id}/refunds`, {
    units: units.slice(0, count).map(({ lineId, keyId }) => ({ lineId, keyId })),
    reason: 'Bought by mistake',
  });
}

/** The refund emails sent to the customer about this order, as they read them. */
const refundEmails = async (order: PlacedOrder): Promise<ReadMail[]> =>
  [...(await mailFiles(e2e.store.dataDir)).values()].filter(
    (mail) => mail.subject.startsWith('Refund of') && mail.text.includes(order.id),
  );

async function shot(page: Page, name: string) {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

const LOOKS = [
  ['desktop', { width: 1366, height: 768 }],
  ['phone', PHONE],
] as const;

/**
 * Shows the page in both themes at desktop and phone widths (`show` loads it and checks it), checks that nothing
 * needs a sideways scroll, and keeps a screenshot of each to look at.
 */
async function inEveryLook(page: Page, name: string, show: () => Promise<void>) {
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const [size, viewport] of LOOKS) {
      await page.emulateMedia({ colorScheme });
      await page.addInitScript((theme) => localStorage.setItem('theme', theme), colorScheme);
      await page.setViewportSize(viewport);
      await show();
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await shot(page, `${name}-${size}-${colorScheme}`);
    }
  }
}

const heading = (page: Page) => page.getByRole('heading', { level: 1 });

describe('the order page opened without access', () => {
  it('offers no receipt download but says how to get access, and offers it to the paying browser', async () => {
    const order = await deliveredOrder();
    const stranger = await openPage(e2e.browser, e2e.store.url);
    await stranger.page.goto(`/order-confirmation/${order.id}`);
    const note = stranger.page.getByTestId('receipt-access');
    await note.waitFor();
    expect(await note.innerText()).toBe(
      `Receipt ${order.receiptNumber} opens from the link in your delivery email, or here after you sign in with the email address of this order.`,
    );
    expect(await stranger.page.getByRole('link', { name: /Download receipt/ }).count()).toBe(0);
    await inEveryLook(stranger.page, 'confirmation-without-access', async () => {
      await stranger.page.reload();
      await stranger.page.getByTestId('receipt-access').waitFor();
    });
    await stranger.close();

    const payer = await openPage(e2e.browser, e2e.store.url);
    await holdOrderAccess(payer.page, e2e.store.url, order);
    await payer.page.goto(`/order-confirmation/${order.id}`);
    await payer.page.getByRole('link', { name: `Download receipt ${order.receiptNumber}` }).waitFor();
    expect(await payer.page.getByTestId('receipt-access').count()).toBe(0);
    await payer.close();
  }, 60_000);
});

describe('an order refunded in part, then in full', () => {
  it('says so in its heading, lists the refunds and the net paid, drops the next steps once no key works, and emails the customer each time', async () => {
    const order = await deliveredOrder();
    const unit = shownMoney(Number(order.total) / 2);
    const buyer = await openPage(e2e.browser, e2e.store.url);
    await holdOrderAccess(buyer.page, e2e.store.url, order);
    await buyer.page.goto(`/order-confirmation/${order.id}`);
    await heading(buyer.page).getByText('Order Confirmed!').waitFor();

    await refundUnits(order, 1);
    // The open page follows the refund by itself.
    await heading(buyer.page).getByText('Order partly refunded').waitFor({ timeout: 30_000 });
    const refunds = buyer.page.getByRole('list', { name: 'Refunds' });
    expect(await refunds.getByRole('listitem').count()).toBe(1);
    expect(await refunds.innerText()).toContain(`-${unit}`);
    const summary = buyer.page.locator('[aria-labelledby="confirmation-summary"]');
    expect(await summary.innerText()).toMatch(new RegExp(`Net paid\\s+\\${unit}`));
    expect(await buyer.page.getByRole('heading', { name: 'Next Steps' }).count()).toBe(1);

    await refundUnits(order, 1);
    await heading(buyer.page).getByText('Order refunded').waitFor({ timeout: 30_000 });
    expect(await buyer.page.getByText('Order Confirmed!').count()).toBe(0);
    expect(await buyer.page.getByRole('heading', { name: 'Next Steps' }).count()).toBe(0);
    expect(await refunds.getByRole('listitem').count()).toBe(2);
    expect(await summary.innerText()).toMatch(/Net paid\s+\$0\.00/);

    await inEveryLook(buyer.page, 'confirmation-refunded', async () => {
      await buyer.page.reload();
      await heading(buyer.page).getByText('Order refunded').waitFor();
    });
    await buyer.close();

    // One email per refund, each with its amount, the key it took back and the updated receipt.
    await expect.poll(async () => (await refundEmails(order)).length, { timeout: 30_000 }).toBe(2);
    const emails = await refundEmails(order);
    for (const email of emails) {
      expect(email.to).toEqual([ada.email]);
      expect(email.subject).toMatch(new RegExp(`^Refund of \\${unit} for order #`));
      expect(email.text).toContain('This license key no longer works:');
      expect(email.text).toContain(`${e2e.store.url}/api/orders/${order.id}/receipt.pdf?token=`);
    }
  }, 120_000);

  it('shows the refunds and the net paid in My Orders', async () => {
    const order = await deliveredOrder();
    await refundUnits(order, 1);
    const customer = await openPage(e2e.browser, e2e.store.url);
    await signInAsCustomer(customer.page.context(), e2e.store, ada.email);
    await inEveryLook(customer.page, 'my-orders-partly-refunded', async () => {
      await customer.page.goto('/account');
      const card = customer.page.getByRole('article').filter({ hasText: order.id.slice(0, 8).toUpperCase() });
      await card.getByText('Partly refunded').waitFor();
      const text = await card.innerText();
      expect(text).toContain(`Refunded -${shownMoney(Number(order.total) / 2)}`);
      expect(text).toContain(`Net paid ${shownMoney(Number(order.total) / 2)}`);
    });
    await customer.close();
  }, 120_000);
});
