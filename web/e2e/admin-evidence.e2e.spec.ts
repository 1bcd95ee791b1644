import { generateKeyPairSync } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Product } from '@licensestore/domain';
import { maskedKey } from '@licensestore/domain/audit';
import { orderNumber } from '@licensestore/domain/orders/order-number';
import { checkExport } from '@licensestore/platform/audit-export';
import { strFromU8, unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { extractText } from 'unpdf';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_USERNAME, openAdminPage, signInToBackOffice } from './support/admin.js';
import { openPage, seriousA11yViolations } from './support/browser.js';
import {
  type OpenedItem,
  type PlacedOrder,
  purchasableProducts,
  purchase,
  waitForLicenseKeys,
} from './support/purchases.js';
import { ADMIN_PASSWORD } from './support/store.js';
import { storeAndBrowserForThisFile } from './support/store-and-browser.js';

const AUDITOR = { username: 'eve-auditor', password: 'auditor password 1' };
const { privateKey, publicKey } = generateKeyPairSync('ed25519');

const e2e = storeAndBrowserForThisFile(() => ({
  AUDIT_SIGNING_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
}));
let order: PlacedOrder;
let item: OpenedItem;
let key: string;

beforeAll(async () => {
  const [product] = await purchasableProducts(e2e.store.url);
  order = await purchase(e2e.store.url, { name: 'Grace Hopper', email: 'grace@example.com' }, [
    { product: product as Product, quantity: 1 },
  ]);
  // The paying browser's page shows the key: the first recorded reveal.
  [item] = (await waitForLicenseKeys(e2e.store.url, order)) as [OpenedItem];
  key = item.licenseKeys[0] as string;
  await addAuditor();
});

/** The auditor, added by the admin as the Team screen does. */
async function addAuditor() {
  const login = await fetch(`${e2e.store.url}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: ADMIN_USERNAME, password: ADMIN_PASSWORD }),
  });
  const session = login.headers.getSetCookie()[0]?.split(';')[0] ?? '';
  const added = await fetch(`${e2e.store.url}/api/admin/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: session },
    body: JSON.stringify({ ...AUDITOR, role: 'auditor' }),
  });
  expect(added.status).toBe(201);
}

/** Clicks the order page's download button and reads the pack the browser saved. */
async function downloadPack(page: Page) {
  await page.goto(`/admin/orders/${order.id}`);
  await page.getByRole('heading', { level: 1, name: `Order ${orderNumber(order.id)}` }).waitFor();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download evidence pack' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`evidence-${orderNumber(order.id).slice(1)}.zip`);
  const files = unzipSync(new Uint8Array(await readFile(await download.path())));
  const { text } = await extractText(files['evidence.pdf'] as Uint8Array, { mergePages: true });
  return {
    pdfText: text.replace(/\s+/g, ' '),
    lines: strFromU8(files['events.ndjson'] as Uint8Array)
      .trimEnd()
      .split('\n'),
    manifest: JSON.parse(strFromU8(files['events.ndjson.manifest.json'] as Uint8Array)),
  };
}

/** The pack reads as the order, keys masked, and its events verify; one altered line fails. */
async function expectSoundPack(pack: Awaited<ReturnType<typeof downloadPack>>, reveals: string[]) {
  for (const text of [
    `Evidence pack: order ${orderNumber(order.id)}`,
    'Grace Hopper <grace@example.com>',
    'Capture status: COMPLETED',
    `Amount: ${order.total} USD`,
    'accepted by the mail server at',
    maskedKey(key),
    ...reveals,
  ]) {
    expect(pack.pdfText).toContain(text);
  }
  expect(pack.pdfText).not.toContain(key);
  expect(pack.lines.join('\n')).not.toContain(key);
  expect(await checkExport(pack.lines, pack.manifest, publicKey)).toMatchObject({
    ok: true,
    orderId: order.id,
  });
  const tampered = pack.lines.map((line, index) => (index === 1 ? line.replace('Grace', 'Mallory') : line));
  expect(await checkExport(tampered, pack.manifest, publicKey)).toMatchObject({ ok: false, line: 2 });
}

describe('Dispute evidence and key custody in the back office', () => {
  it('an admin reveals a key (recorded), downloads the evidence pack and checks it', async () => {
    const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
    await page.goto(`/admin/orders/${order.id}`);
    const lines = page.getByRole('region', { name: 'Items and license keys' });
    await lines.getByRole('button', { name: `Reveal license key 1 of ${item.productName}` }).click();
    await lines.getByText(key).waitFor();

    const pack = await downloadPack(page);
    await expectSoundPack(pack, [
      'shown on the order confirmation page to the browser that paid',
      'shown in the back office to admin;',
    ]);
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  }, 120_000);

  it("opens a key's history from the order page: imported, assigned, delivered, each reveal", async () => {
    const { page, errors, close } = await openAdminPage(e2e.browser, e2e.store.url);
    await page.goto(`/admin/orders/${order.id}`);
    await page.getByRole('link', { name: `History of license key 1 of ${item.productName}` }).click();
    await page.getByRole('heading', { level: 1, name: 'License key history' }).waitFor();
    const steps = page.getByRole('list', { name: 'Key history, oldest first' });
    await steps.waitFor();
    const titles = await steps.getByRole('heading', { level: 3 }).allTextContents();
    expect(titles.slice(0, 2)).toEqual(['Imported', 'Assigned']);
    expect(titles).toContain('Delivered');
    const text = (await steps.textContent()) ?? '';
    expect(text).toContain('Shown on the order confirmation page to the browser that paid');
    expect(text).toContain('Shown to admin in the back office');
    expect(text).toMatch(/Mail server message id\S+/);
    expect(await page.textContent('main')).not.toContain(key);
    expect(await page.getByText(maskedKey(key)).isVisible()).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The inventory links to the same page (assigned keys, the newest first).
    await page.goto('/admin/license-keys');
    await page.getByRole('combobox', { name: 'Status', exact: true }).click();
    await page.getByRole('option', { name: 'Assigned', exact: true }).click();
    await page
      .getByRole('link', {
        name: `History of license key ending ${key.slice(-4)} of ${item.productName}`,
      })
      .click();
    await page.waitForURL((url) => url.pathname.startsWith('/admin/license-keys/'));
    await page.getByRole('list', { name: 'Key history, oldest first' }).waitFor();
    expect(errors).toEqual([]);
    await close();
  });

  it('an auditor downloads the same pack, sees the key only masked, and cannot reveal it', async () => {
    const { page, errors, close } = await openPage(e2e.browser, e2e.store.url);
    await signInToBackOffice(page, AUDITOR.username, AUDITOR.password);
    await page.goto(`/admin/orders/${order.id}`);
    const lines = page.getByRole('region', { name: 'Items and license keys' });
    await lines.getByText(maskedKey(key)).waitFor();
    expect(await lines.getByRole('button', { name: /Reveal|Copy/ }).count()).toBe(0);
    const pack = await downloadPack(page);
    await expectSoundPack(pack, ['shown in the back office to admin;']);
    expect(errors).toEqual([]);
    await close();
  }, 120_000);
});
