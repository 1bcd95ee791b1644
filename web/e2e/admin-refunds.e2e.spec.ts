import type { RefundableUnitView } from '@licensestore/domain';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { freshLicenseKey } from '../../test/support/license-keys.js';
import { openAdminPage, openStaleAndOtherAdminPages } from './support/admin.js';
import { adminCall } from './support/admin-call.js';
import { openPage, toastSaying } from './support/browser.js';
import {
  holdOrderAccess,
  type PlacedOrder,
  purchasableProducts,
  purchase,
  waitForLicenseKeys,
} from './support/purchases.js';
import { storeAndBrowserForThisFile } from './support/store-and-browser.js';

const e2e = storeAndBrowserForThisFile();

const ada = { name: 'Ada Lovelace', email: 'ada@example.com' };

const availableKeys = async (page: Page) =>
  (await adminCall<{ availableKeys: number }>(page, 'GET', '/api/admin/dashboard')).availableKeys;

/** Waits until the dialog's units are what the order holds now (the delivery e-mail, a key assigned). */
const untilUnits = (page: Page, order: PlacedOrder, holds: (units: RefundableUnitView[]) => boolean) =>
  expect
    .poll(() => adminCall<RefundableUnitView[]>(page, 'GET', `/api/orders/${order.id}/refundable-units`), {
      timeout: 30_000,
      interval: 100,
    })
    .toSatisfy(holds);

async function refundFirstUnit(page: Page, order: PlacedOrder, consequence: string) {
  await page.goto(`/admin/orders/${order.id}`);
  await page.getByRole('button', { name: 'Refund', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Refund' });
  await dialog.getByRole('checkbox').nth(1).check();
  await dialog.getByLabel('Reason *').fill('Bought by mistake');
  await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
  await dialog.getByRole('alert').getByText(consequence).waitFor();
  await dialog.getByRole('button', { name: 'Confirm refund' }).click();
  await toastSaying(page, 'Refund completed');
  await page.getByRole('list', { name: 'Refunds of this order' }).getByText('Completed').waitFor();
}

describe('an admin refund', () => {
  it('of one delivered unit revokes its key, shows it revoked to the customer, and leaves the stock as it was', async () => {
    const [product] = await purchasableProducts(e2e.store.url);
    if (!product) throw new Error('no product in stock');
    const order = await purchase(e2e.store.url, ada, [{ product, quantity: 2 }]);
    await waitForLicenseKeys(e2e.store.url, order);
    const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
    await untilUnits(page, order, (units) => units.every((unit) => unit.leftStore));
    const before = await availableKeys(page);

    await refundFirstUnit(page, order, 'The key will be revoked');
    await page.getByText('Revoked').first().waitFor();
    expect(await availableKeys(page)).toBe(before);
    expect(errors).toEqual([]);
    await close();

    const customer = await openPage(e2e.browser, e2e.store.url);
    await holdOrderAccess(customer.page, e2e.store.url, order);
    await customer.page.goto(`/order-confirmation/${order.id}`);
    const keys = customer.page.getByRole('list', { name: `License keys for ${product.name}` });
    await keys.getByText('Revoked').waitFor();
    expect(await keys.getByRole('button', { name: /^Copy license key/ }).count()).toBe(1);
    expect(customer.errors).toEqual([]);
    await customer.close();
  });

  it('of a unit whose key was never delivered puts the key back in stock', async () => {
    const products = await purchasableProducts(e2e.store.url);
    const product = products[1];
    if (!product) throw new Error('no second product in stock');
    // Its 20 keys go to two orders of 10; the third order gets one key added later and waits for the other.
    await purchase(e2e.store.url, ada, [{ product, quantity: 10 }]);
    await purchase(e2e.store.url, ada, [{ product, quantity: 10 }]);
    const order = await purchase(e2e.store.url, ada, [{ product, quantity: 2 }]);
    const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
    await untilUnits(page, order, (units) => units.length === 2);
    await adminCall(page, 'POST', '/api/license-keys', { productId: product.id, key: freshLicenseKey() });
    await untilUnits(page, order, (units) => units.some((unit) => unit.keyId !== null));
    const before = await availableKeys(page);

    await refundFirstUnit(page, order, 'The key returns to stock');
    // The workers give the key back a moment after the refund: the stock grows by it, and the page says so.
    await page.waitForFunction(
      async (expected) => (await (await fetch('/api/admin/dashboard')).json()).availableKeys === expected,
      before + 1,
      { polling: 100, timeout: 20_000 },
    );
    await page.reload();
    await page.getByText('Returned to stock', { exact: true }).waitFor();
    expect(errors).toEqual([]);
    await close();
  });

  it('is refused on an order page that missed a refund made in another tab, before PayPal is asked', async () => {
    const product = (await purchasableProducts(e2e.store.url))[2];
    if (!product) throw new Error('no third product in stock');
    const order = await purchase(e2e.store.url, ada, [{ product, quantity: 2 }]);
    await waitForLicenseKeys(e2e.store.url, order);
    const { stale, other, close } = await openStaleAndOtherAdminPages(e2e.browser, e2e.store.url);
    try {
      await stale.page.goto(`/admin/orders/${order.id}`);
      await untilUnits(stale.page, order, (units) => units.every((unit) => unit.leftStore));
      await refundFirstUnit(other.page, order, 'The key will be revoked');

      await stale.page.getByRole('button', { name: 'Refund', exact: true }).click();
      const dialog = stale.page.getByRole('dialog', { name: 'Refund' });
      await dialog.getByRole('checkbox').nth(1).check();
      await dialog.getByLabel('Reason *').fill('Asked twice');
      await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
      const refused = stale.page.waitForResponse((response) => response.url().endsWith('/refunds'));
      await dialog.getByRole('button', { name: 'Confirm refund' }).click();
      expect((await refused).status()).toBe(412);
      await toastSaying(
        stale.page,
        'Not refunded',
        'This order was changed by someone else since you opened it; it now shows the changes. Refund again if you still want to.',
      );
      await dialog.waitFor({ state: 'hidden' });
      const refunds = stale.page.getByRole('list', { name: 'Refunds of this order' });
      await refunds.getByText('Completed').waitFor();
      expect(await refunds.getByRole('listitem').count()).toBe(1);
      expect(stale.errors.filter((error) => !error.includes('412'))).toEqual([]);
      expect(other.errors).toEqual([]);
    } finally {
      await close();
    }
  });
});
