import type { Product } from '@licensestore/domain';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshLicenseKey } from '../../test/support/license-keys.js';
import { signInAsAdmin } from './support/admin.js';
import { openPage, type TestPage } from './support/browser.js';
import { signInAsCustomer } from './support/customer-session.js';
import {
  deliveryEmailTo,
  holdOrderAccess,
  type PlacedOrder,
  purchase,
  waitForLicenseKeys,
} from './support/purchases.js';
import { storeAndBrowserForThisFile } from './support/store-and-browser.js';

/**
 * Markup in everything people can type, each piece with an id to look for: rendered as markup it would make an
 * element (even where the CSP stops its script from running) and set window.__xss where nothing stops it.
 */
const SCRIPT = '<script id="xss-script">window.__xss=1</script>';
const IMG = '<img src=x id="xss-img" onerror="window.__xss=1;alert(1)">';
const SVG = '"><svg id="xss-svg" onload=window.__xss=1>';
const JS_URL = 'javascript:window.__xss=1';

const PRODUCT = {
  name: `Hostile Suite ${SCRIPT}`,
  description: `Opens everything. ${IMG} ${SVG} <a id="xss-link" href="${JS_URL}">click</a> ${JS_URL}`,
  category: `Tools ${SVG}`,
  platform: `Windows ${IMG}`,
  imageUrl: '/images/products/windows-11-pro.svg',
  regularPrice: '12.00',
  featured: true,
  inStock: true,
};
const CUSTOMER = { name: `Mallory ${IMG}`, email: 'mallory@example.com' };
// Keys must be in their product's format (letters, digits and hyphens), so no key added today holds markup.
const KEYS = [freshLicenseKey(), freshLicenseKey()];
/** Usernames may hold anything but spaces and control characters. */
const USER = {
  username: '<img/src=x/id="xss-user"/onerror="window.__xss=1">',
  password: 'hostile admin password',
};

const e2e = storeAndBrowserForThisFile();
let admin: WatchedPage;
let product: Product;
let order: PlacedOrder;
/** The key the order was given (either may be, whichever the workers assigned). */
let assignedKey: string;

/** Creates the hostile product and its keys as the signed-in admin's browser would, through the API. */
async function createHostileCatalogue(page: Page): Promise<Product> {
  const created = await page.request.post('/api/products', { data: PRODUCT });
  expect(created.status(), await created.text()).toBe(201);
  const stored = (await created.json()) as Product;
  for (const key of KEYS) {
    const added = await page.request.post('/api/license-keys', { data: { productId: stored.id, key } });
    expect(added.status(), await added.text()).toBe(201);
  }
  return stored;
}

beforeAll(async () => {
  admin = await watchedPage();
  await signInAsAdmin(admin.page);
  product = await createHostileCatalogue(admin.page);
  order = await purchase(e2e.store.url, CUSTOMER, [{ product, quantity: 1 }]);
  const [line] = await waitForLicenseKeys(e2e.store.url, order);
  assignedKey = line?.licenseKeys[0] as string;
});

interface WatchedPage extends TestPage {
  /** Dialogs (alert, confirm, prompt) the page opened. */
  dialogs: string[];
  /** CSP violations the page reported: a blocked inline script or handler means markup got through. */
  violations: () => Promise<string[]>;
}

/** A page that records dialogs and CSP violations on top of what openPage records. */
async function watchedPage(): Promise<WatchedPage> {
  const opened = await openPage(e2e.browser, e2e.store.url);
  const dialogs: string[] = [];
  opened.page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  // Init scripts run through the DevTools protocol, outside the page's CSP.
  await opened.page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push(`${event.violatedDirective} ${event.blockedURI} ${event.sample}`);
    });
  });
  return {
    ...opened,
    dialogs,
    violations: async () => [
      ...(await opened.page.evaluate(
        () => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? [],
      )),
      ...opened.errors.filter((error) => error.includes('Content Security Policy')),
    ],
  };
}

/** Waits for each text to be on screen as text, then checks no payload became markup or ran. */
async function expectShownAsText(watched: WatchedPage, texts: string[]) {
  const { page } = watched;
  for (const text of texts) await page.getByText(text).filter({ visible: true }).first().waitFor();
  const injected = await page.evaluate(() => ({
    xss: (window as unknown as { __xss?: unknown }).__xss,
    elements: [...document.querySelectorAll('[id^="xss-"]')].map((element) => element.outerHTML),
    javascriptLinks: [...document.querySelectorAll('a[href^="javascript:" i]')].map((link) => link.outerHTML),
  }));
  expect(injected).toEqual({ xss: undefined, elements: [], javascriptLinks: [] });
  expect(watched.dialogs).toEqual([]);
  expect(await watched.violations()).toEqual([]);
}

describe('typed markup is shown as text', () => {
  describe('on the storefront', () => {
    let shopper: WatchedPage;

    beforeAll(async () => {
      shopper = await watchedPage();
      // The shopper is the one who paid: the confirmation page shows them the key.
      await holdOrderAccess(shopper.page, e2e.store.url, order);
    });
    afterAll(async () => {
      await shopper?.close();
    });

    it('home, with the product among the featured ones it shows', async () => {
      // The home shows the 8 oldest featured products: the demo's step aside.
      const products = (await (await admin.page.request.get('/api/products')).json()) as Product[];
      for (const other of products.filter((each) => each.featured && each.id !== product.id)) {
        const changed = await admin.page.request.patch(`/api/products/${other.id}`, {
          data: { featured: false },
        });
        expect(changed.status()).toBe(200);
      }
      await shopper.page.goto('/');
      await expectShownAsText(shopper, [PRODUCT.name]);
    });

    it.each([
      ['all products', '/products', () => [PRODUCT.name]],
      [
        'the category filter',
        `/products?category=${encodeURIComponent(PRODUCT.category)}`,
        () => [PRODUCT.name],
      ],
      [
        'product detail',
        () => `/product/${product.id}`,
        () => [PRODUCT.name, PRODUCT.description, PRODUCT.platform],
      ],
      ['order confirmation', () => `/order-confirmation/${order.id}`, () => [PRODUCT.name, assignedKey]],
    ] as Array<[string, string | (() => string), () => string[]]>)('%s', async (_page, path, texts) => {
      await shopper.page.goto(typeof path === 'string' ? path : path());
      await expectShownAsText(shopper, texts());
    });

    it('cart and checkout', async () => {
      const { page } = shopper;
      await page.goto(`/product/${product.id}`);
      await page.getByRole('button', { name: 'Add to Cart - Buy Now' }).click();
      await page.getByRole('button', { name: 'Cart, 1 item' }).click();
      const panel = page.getByRole('dialog', { name: 'Shopping Cart' });
      await panel.getByText(PRODUCT.name).waitFor();
      await expectShownAsText(shopper, [PRODUCT.name]);
      await panel.getByRole('button', { name: 'Proceed to Checkout' }).click();
      await page.waitForURL((url) => url.pathname === '/checkout');
      await expectShownAsText(shopper, [PRODUCT.name]);
    });

    it('My Orders, signed in as the customer', async () => {
      const customer = await watchedPage();
      await signInAsCustomer(customer.page.context(), e2e.store, CUSTOMER.email);
      await customer.page.goto('/account');
      await expectShownAsText(customer, [PRODUCT.name]);
      await customer.close();
    });
  });

  describe('in the back office', () => {
    it.each([
      ['dashboard', () => '/admin', () => [CUSTOMER.name, PRODUCT.name]],
      ['products', () => '/admin/products', () => [PRODUCT.name, PRODUCT.category]],
      ['orders', () => '/admin/orders', () => [CUSTOMER.name]],
      ['an order', () => `/admin/orders/${order.id}`, () => [CUSTOMER.name, PRODUCT.name]],
      ['customers', () => '/admin/customers', () => [CUSTOMER.name]],
      ['license keys', () => '/admin/license-keys', () => [PRODUCT.name]],
      ["audit: an order's history", () => `/admin/audit/orders/${order.id}`, () => [PRODUCT.name]],
    ] as Array<[string, () => string, () => string[]]>)('%s', async (_page, path, texts) => {
      await admin.page.goto(path());
      await expectShownAsText(admin, texts());
    });

    it('a license key an admin reveals in the inventory', async () => {
      // The list shows every key masked; the one the order did not take is shown in full on purpose.
      await admin.page.goto('/admin/license-keys?status=available');
      const row = admin.page.getByRole('table', { name: 'License keys' }).locator('tbody tr').first();
      await row.getByRole('button', { name: /^Reveal license key/ }).click();
      await expectShownAsText(admin, [KEYS[1] as string]);
    });
  });

  describe('naming a back-office user whose username is markup', () => {
    it("on the Team screen and in an order's timeline, after they resent its delivery e-mail", async () => {
      const added = await admin.page.request.post('/api/admin/users', { data: { ...USER, role: 'admin' } });
      expect(added.status(), await added.text()).toBe(201);
      const theirs = await e2e.browser.newContext({ baseURL: e2e.store.url });
      const signedIn = await theirs.request.post('/api/admin/login', { data: USER });
      expect(signedIn.status(), await signedIn.text()).toBe(200);
      const resent = await theirs.request.post(`/api/orders/${order.id}/delivery-email`);
      expect(resent.ok(), await resent.text()).toBe(true);
      await theirs.close();

      await admin.page.goto('/admin/team');
      await expectShownAsText(admin, [USER.username]);
      await admin.page.goto(`/admin/orders/${order.id}`);
      await expectShownAsText(admin, [`By ${USER.username}`]);
    });
  });

  describe('in the audit event log', () => {
    it("shows the product's creation with its data as JSON text", async () => {
      await admin.page.goto('/admin/audit/events');
      await admin.page.getByLabel('Product id').fill(product.id);
      await admin.page.getByRole('button', { name: 'Apply filters' }).click();
      const created = admin.page.getByRole('row').filter({ hasText: 'ProductCreated' });
      await created.locator('summary').click();
      await expectShownAsText(admin, [JSON.stringify(PRODUCT.name).slice(1, -1)]);
    });
  });

  describe('in the delivery e-mail', () => {
    it('escapes the customer name, product name and keys in its HTML', async () => {
      const mail = await deliveryEmailTo(e2e.store.dataDir, CUSTOMER.email);
      for (const payload of [SCRIPT, IMG, SVG]) expect(mail.html).not.toContain(payload);
      expect(mail.text).toContain(PRODUCT.name);
      expect(mail.text).toContain(assignedKey);

      // Opened as a mail client would, with no CSP to help: nothing becomes markup or runs.
      const reader = await watchedPage();
      await reader.page.setContent(mail.html);
      await expectShownAsText(reader, [PRODUCT.name, assignedKey]);
      await reader.close();
    });
  });
});
