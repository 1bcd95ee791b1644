import { generateKeyPairSync } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Product } from '@licensestore/domain';
import { orderNumber } from '@licensestore/domain/orders/order-number';
import { checkExport } from '@licensestore/platform/audit-export';
import { strFromU8, unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshLicenseKey } from '../../test/support/license-keys.js';
import { openAdminPage } from './support/admin.js';
import { adminCall } from './support/admin-call.js';
import { toastSaying } from './support/browser.js';
import { type PlacedOrder, purchasableProducts, purchase, waitForLicenseKeys } from './support/purchases.js';
import { storeAndBrowserForThisFile } from './support/store-and-browser.js';

/**
 * The back office after something went wrong or was about to: a refunded order offers no resend, a re-import
 * skips the keys already in stock, a weak password is refused under its field, the orders list says where it is
 * and asks before a paid order goes back to pending, and an auditor downloads the signed log of a period.
 */

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const ADA = { name: 'Ada Lovelace', email: 'ada@example.com' };
/** A customer whose name and address are as long as real ones get. */
const MAXIMILIANA = {
  name: 'Maximiliana Alexandra von Humboldt-Bonpland',
  email: 'maximiliana.alexandra.humboldt@research-institute.example.org',
};

const e2e = storeAndBrowserForThisFile(() => ({
  AUDIT_SIGNING_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
}));
let products: Product[];

beforeAll(async () => {
  products = await purchasableProducts(e2e.store.url);
});

/** Neither a status code nor JSON anywhere a person reads. */
async function showsNoRawAnswer(page: Page) {
  const text = await page.locator('body').textContent();
  expect(text).not.toMatch(/\b[45]\d\d: |\{"error"/);
}

describe('a refunded order', () => {
  it('does not offer to resend its delivery email, and says why beside the button', async () => {
    const order = await purchase(e2e.store.url, ADA, [{ product: products[0] as Product, quantity: 1 }]);
    await waitForLicenseKeys(e2e.store.url, order);
    const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
    await adminCall(page, 'POST', `/api/orders/${order.id}/refunds`, {
      all: true,
      reason: 'Bought by mistake',
    });
    await page.goto(`/admin/orders/${order.id}`);
    await page
      .getByText('Not available: the order is refunded, so its license keys no longer work.')
      .waitFor();
    const resend = page.getByRole('button', { name: 'Resend delivery email' });
    expect(await resend.isDisabled()).toBe(true);
    expect(await resend.getAttribute('aria-describedby')).toBe('resend-unavailable');
    await showsNoRawAnswer(page);
    await page.screenshot({ path: '/tmp/i34-refunded-order.png', fullPage: true });
    expect(errors).toEqual([]);
    await close();
  });
});

describe('the key import', () => {
  it('imports the new keys, reports those already in stock as skipped, and empties the box', async () => {
    const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
    await page.goto('/admin/license-keys');
    await page.getByRole('button', { name: 'Import Keys' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import License Keys' });
    const product = products[1] as Product;
    await dialog.getByRole('combobox', { name: 'Product *' }).click();
    await page.getByRole('option', { name: product.name, exact: true }).click();
    const box = dialog.getByLabel('License Keys *');
    const held = [freshLicenseKey(), freshLicenseKey()];
    await box.fill(held.join('\n'));
    await dialog.getByRole('button', { name: 'Import' }).click();
    await toastSaying(page, 'License keys imported', '2 license keys added.');
    const outcome = dialog.getByRole('status');
    // The box empties with the outcome shown, once the lists behind the dialog are read again.
    await outcome.getByText('2 license keys added.').waitFor();
    expect(await box.inputValue()).toBe('');

    // The same keys again, with one new: the new one goes in, the others are skipped, and nothing is refused.
    await box.fill([...held, freshLicenseKey()].join('\n'));
    await dialog.getByRole('button', { name: 'Import' }).click();
    await outcome.getByText('1 license key added; 2 already in stock, skipped.').waitFor();
    expect(
      await outcome.getByRole('list', { name: 'Skipped lines' }).getByRole('listitem').allTextContents(),
    ).toEqual([
      expect.stringMatching(/^Line 1 .*: Already in stock$/),
      expect.stringMatching(/^Line 2 .*: Already in stock$/),
    ]);
    expect(await box.inputValue()).toBe('');

    // Only keys already held: an answer, not a refusal.
    await box.fill(held.join('\n'));
    await dialog.getByRole('button', { name: 'Import' }).click();
    await outcome.getByText('No new license key added; 2 already in stock, skipped.').waitFor();
    expect(await dialog.getByRole('alert').count()).toBe(0);
    await page.screenshot({ path: '/tmp/i34-key-import.png' });
    expect(errors).toEqual([]);
    await close();
  });
});

describe('the Team screen', () => {
  it('shows a weak password refused under the Password field in plain words', async () => {
    const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
    await page.goto('/admin/team');
    await page.getByRole('button', { name: 'Add User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add User' });
    await dialog.getByLabel('Username').fill('kim');
    await dialog.getByLabel('Password').fill('aaaaaaaaaaaa');
    await dialog.getByRole('button', { name: 'Add User' }).click();
    const problem = page.locator('#user-password-problem');
    await problem.waitFor();
    expect(await problem.textContent()).toMatch(/^The password is too easy to guess: Repeated characters/);
    expect(await dialog.getByRole('alert').count()).toBe(0);
    expect(await dialog.getByLabel('Password').getAttribute('aria-invalid')).toBe('true');
    expect(await dialog.textContent()).not.toContain('password: ');
    await page.screenshot({ path: '/tmp/i34-team-weak-password.png' });
    // Typing again clears the refusal, which belonged to the password sent.
    await dialog.getByLabel('Password').fill('a sturdier passphrase 42');
    await problem.waitFor({ state: 'detached' });
    // A refused request is logged by Chromium; nothing else may go wrong.
    expect(errors).toEqual([
      'Failed to load resource: the server responded with a status of 400 (Bad Request)',
    ]);
    await close();
  });
});

describe('the Orders list', () => {
  let orders: PlacedOrder[];

  beforeAll(async () => {
    orders = [];
    // Five orders at least, so a page of two has a full second page.
    for (const customer of [ADA, MAXIMILIANA, ADA, ADA, ADA]) {
      orders.push(
        await purchase(e2e.store.url, customer, [{ product: products[2] as Product, quantity: 1 }]),
      );
    }
  });

  it('says which orders of how many it shows, and starts another page at the top', async () => {
    const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
    await page.setViewportSize({ width: 1280, height: 400 });
    await page.goto('/admin/orders?limit=2');
    const total = Number(
      (await adminCall<{ total: number }>(page, 'GET', '/api/admin/orders?limit=2')).total,
    );
    await page.getByText(`Showing 1–2 of ${total} orders`).waitFor();
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page
      .getByRole('navigation', { name: 'Orders pages' })
      .getByRole('button', { name: 'Next' })
      .click();
    await page.getByText(`Showing 3–4 of ${total} orders`).waitFor();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(errors).toEqual([]);
    await close();
  });

  it('asks before setting a paid order back to Pending, saying what happens', async () => {
    const order = orders[0] as PlacedOrder;
    await waitForLicenseKeys(e2e.store.url, order);
    const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
    await page.goto(`/admin/orders/${order.id}`);
    const number = orderNumber(order.id);
    await page.getByRole('combobox', { name: `Status of order ${number}` }).click();
    await page.getByRole('option', { name: 'Pending', exact: true }).click();
    const question = page.getByRole('alertdialog', { name: `Set paid order ${number} back to Pending?` });
    await question.getByText(/no money moves, no email is sent and its license keys keep working/).waitFor();
    await page.screenshot({ path: '/tmp/i34-pending-question.png' });
    await question.getByRole('button', { name: 'Keep Completed' }).click();
    await question.waitFor({ state: 'detached' });
    expect((await adminCall<{ status: string }>(page, 'GET', `/api/orders/${order.id}`)).status).toBe(
      'completed',
    );
    expect(errors).toEqual([]);
    await close();
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`fits at 1280×900 with the sidebar open, Order ID and Customer in view (${colorScheme})`, async () => {
      const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url, { colorScheme });
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto('/admin/orders');
      const table = page.getByRole('table', { name: 'Orders' });
      await table.getByRole('link').first().waitFor();
      // The table's scroll box scrolls nothing sideways, nor does the page.
      const overflow = await table.evaluate((element) => {
        const box = element.parentElement as HTMLElement;
        return {
          table: box.scrollWidth - box.clientWidth,
          page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        };
      });
      expect(overflow).toEqual({ table: 0, page: 0 });
      // The status menu opened on a row keeps the row's first columns where they were.
      // CSS, not roles: the open menu hides the rest of the page from the accessibility tree.
      const row = page.locator('table[aria-label="Orders"] tr', { hasText: MAXIMILIANA.email });
      await row.getByRole('combobox').click();
      await page.getByRole('option', { name: 'Pending', exact: true }).waitFor();
      for (const cell of [row.locator('a'), row.locator('td', { hasText: MAXIMILIANA.name })]) {
        const box = await cell.boundingBox();
        expect(box && box.x >= 256 && box.x + box.width <= 1280, String(await cell.textContent())).toBe(true);
      }
      await page.screenshot({ path: `/tmp/i34-orders-1280-${colorScheme}.png` });
      await page.keyboard.press('Escape');
      expect(errors).toEqual([]);
      await close();
    });
  }
});

describe('the signed export of a period', () => {
  it('is downloaded from the verify screen and verifies with the store key', async () => {
    const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
    await page.goto('/admin/audit/verify');
    const card = page.getByRole('region', { name: 'Export the signed log' });
    await card.getByText(/^Signed with key [0-9a-f]{16}$/).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      card.getByRole('button', { name: 'Download signed export' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^audit-export-\d{8}T\d{6}Z-\d{8}T\d{6}Z\.zip$/);
    const files = unzipSync(new Uint8Array(await readFile(await download.path())));
    const name = download.suggestedFilename().replace(/\.zip$/, '.ndjson');
    const lines = strFromU8(files[name] as Uint8Array)
      .trimEnd()
      .split('\n');
    const manifest = JSON.parse(strFromU8(files[`${name}.manifest.json`] as Uint8Array));
    expect(manifest.count).toBeGreaterThan(10);
    expect(await checkExport(lines, manifest, publicKey)).toMatchObject({ ok: true, count: manifest.count });
    await page.screenshot({ path: '/tmp/i34-period-export.png', fullPage: true });
    expect(errors).toEqual([]);
    await close();
  });

  it('refuses a period that is not over, in a sentence', async () => {
    const { page, close } = await openAdminPage(e2e.browser, e2e.store.url);
    const answer = await page.evaluate(async () => {
      const response = await fetch('/api/audit/export?from=2026-01-01&to=2999-01-01');
      return { status: response.status, body: await response.json() };
    });
    expect(answer).toEqual({
      status: 400,
      body: { error: 'The period must be over: 2999-01-01T00:00:00.000Z has not passed yet' },
    });
    await close();
  });
});

describe('the changed screens on a phone', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`fit 390 px without a sideways scroll (${colorScheme})`, async () => {
      const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url, {
        colorScheme,
        phone: true,
      });
      const screens: Array<[string, string]> = [
        ['/admin/orders?limit=2', 'Orders'],
        ['/admin/audit/verify', 'Verify Read Models'],
      ];
      for (const [path, heading] of screens) {
        await page.goto(path);
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
        await page.waitForLoadState('networkidle');
        expect(
          await page.evaluate(
            () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
          ),
          path,
        ).toBe(0);
        await page.screenshot({
          path: `/tmp/i34-phone-${heading.split(' ')[0]?.toLowerCase()}-${colorScheme}.png`,
          fullPage: true,
        });
      }
      expect(errors).toEqual([]);
      await close();
    });
  }
});
