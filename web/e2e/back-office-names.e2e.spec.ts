import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_USERNAME, openAdminPage } from './support/admin.js';
import { type PlacedOrder, purchasableProducts, purchase, waitForLicenseKeys } from './support/purchases.js';
import { storeAndBrowserForThisFile } from './support/store-and-browser.js';

const e2e = storeAndBrowserForThisFile();
let order: PlacedOrder;

/** Where the screenshots of these screens go, to be looked at (phone and laptop, light and dark). */
const SHOTS = process.env.SHOTS_DIR;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

beforeAll(async () => {
  const [product] = await purchasableProducts(e2e.store.url);
  if (!product) throw new Error('the demo catalogue has no product in stock');
  order = await purchase(e2e.store.url, { name: 'Ada Lovelace', email: 'ada@example.com' }, [
    { product, quantity: 1 },
  ]);
  await waitForLicenseKeys(e2e.store.url, order);
});

/** What a person reads in the element: closed details are not rendered, so their ids are not in it. */
const readable = async (page: Page, selector: string) =>
  page.locator(selector).evaluate((element) => (element as HTMLElement).innerText);

/** Texts kept whole (masked keys, email addresses, event names) that the layout broke over two lines. */
const brokenWholes = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('main .whitespace-nowrap')]
      .filter((element) => (element as HTMLElement).offsetParent !== null)
      .filter((element) => {
        const range = document.createRange();
        range.selectNodeContents(element);
        return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size > 1;
      })
      .map((element) => element.textContent),
  );

/** The elements of the page wider than the window (none when it does not scroll sideways). */
const sideways = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('main *')]
      .filter((element) => element.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
      .map((element) => `${element.tagName}.${element.className}: ${element.textContent?.slice(0, 40)}`)
      .slice(0, 5),
  );

async function refundWholeOrder(page: Page) {
  const status = await page.evaluate(
    async (id) =>
      (
        await fetch(`/api/orders/${id}/refunds`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ all: true, reason: 'Bought by mistake' }),
        })
      ).status,
    order.id,
  );
  expect(status).toBeLessThan(300);
}

/** The order page's timeline, once it shows the refund. */
async function refundedOrderTimeline(page: Page) {
  const timeline = page.getByRole('list', { name: 'Order events, oldest first' });
  await timeline.getByRole('heading', { name: 'Refund completed', level: 3 }).waitFor();
  return timeline;
}

/** Follows the order page's link to its first key's history; the history's steps, once shown. */
async function firstKeyHistory(page: Page) {
  await page
    .getByRole('link', { name: /^History of license key/ })
    .first()
    .click();
  const steps = page.getByRole('list', { name: 'Key history, oldest first' });
  await steps.waitFor();
  return steps;
}

describe('the back office names people and events in plain words', () => {
  it('says who refunded by username, and key history in sentences with the ids only under Details', async () => {
    const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
    await refundWholeOrder(page);
    await page.goto(`/admin/orders/${order.id}`);
    const refunds = page.getByRole('list', { name: 'Refunds of this order' });
    await refunds.getByText(`by ${ADMIN_USERNAME}`, { exact: false }).waitFor();
    expect(await refunds.innerText()).not.toMatch(UUID);

    const timeline = await refundedOrderTimeline(page);
    const timelineText = await timeline.innerText();
    expect(timelineText).not.toMatch(/By Admin|Licence|LicenceKey|OrderCaptured/);
    expect(timelineText).toContain(`By ${ADMIN_USERNAME}`);

    const steps = await firstKeyHistory(page);
    const stepsText = await readable(page, 'ol[aria-label="Key history, oldest first"]');
    // The demo catalogue's keys were imported by the seed.
    expect(stepsText).toContain('Added to stock by the demo data');
    expect(stepsText).toContain('Shown on the order confirmation page to the browser that paid');
    expect(stepsText).not.toMatch(UUID);
    expect(stepsText).not.toMatch(/By Admin|address hash|Licence/);
    const status = page.locator('dt', { hasText: 'Status' }).locator('xpath=following-sibling::dd[1]');
    expect(await status.innerText()).toMatch(/^[A-Z]/);

    // The auditor opens a step's details: the stored event type and the ids behind the sentence.
    const imported = steps.getByRole('listitem').filter({ hasText: 'Imported' });
    await imported.getByText('Details', { exact: true }).click();
    await imported.getByText('LicenceKeyAdded', { exact: true }).waitFor();
    expect(errors).toEqual([]);
    await close();
  });

  it('never breaks a masked key or an event name inside on a phone, in either theme', async () => {
    if (SHOTS) await mkdir(SHOTS, { recursive: true });
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const phone of [true, false]) {
        const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url, {
          colorScheme,
          phone,
        });
        await page.setViewportSize(phone ? { width: 390, height: 844 } : { width: 1366, height: 768 });
        await page.goto(`/admin/orders/${order.id}`);
        const timeline = await refundedOrderTimeline(page);
        for (const details of await timeline.getByText('Details', { exact: true }).all())
          await details.click();
        expect(await brokenWholes(page)).toEqual([]);
        expect(await sideways(page)).toEqual([]);
        const size = phone ? 'phone' : 'laptop';
        if (SHOTS)
          await page.screenshot({
            path: `${SHOTS}/order-timeline-${size}-${colorScheme}.png`,
            fullPage: true,
          });

        const steps = await firstKeyHistory(page);
        for (const details of await steps.getByText('Details', { exact: true }).all()) await details.click();
        expect(await brokenWholes(page)).toEqual([]);
        expect(await sideways(page)).toEqual([]);
        if (SHOTS)
          await page.screenshot({ path: `${SHOTS}/key-history-${size}-${colorScheme}.png`, fullPage: true });
        expect(errors).toEqual([]);
        await close();
      }
    }
  }, 120_000);
});
