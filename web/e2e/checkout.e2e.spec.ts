import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Product } from '@licensestore/domain';
import { NO_CARDS_CLIENT_ID } from '@licensestore/paypal-sandbox';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { orderLinkIn } from '../../test/support/mail.js';
import { openPage, PHONE, seriousA11yViolations, type TestPage, toastSaying } from './support/browser.js';
import {
  fillCard,
  fillCustomer,
  paypalButton,
  priceOf,
  REDIRECT_DELAY_MS,
  recordRedirectTime,
  redirectTimes,
  storedCart,
  withCart,
} from './support/checkout-page.js';
import { shownMoney } from './support/money.js';
import { deliveryEmailTo, purchasableProducts, purchase, waitForLicenseKeys } from './support/purchases.js';
import { ADMIN_PASSWORD } from './support/store.js';
import { storeAndBrowserForThisFile } from './support/store-and-browser.js';

const e2e = storeAndBrowserForThisFile();
let products: Product[];

beforeAll(async () => {
  products = await purchasableProducts(e2e.store.url);
});

async function open(options: Parameters<typeof openPage>[2] = {}): Promise<TestPage> {
  return openPage(e2e.browser, e2e.store.url, options);
}

/** An admin session through the API (the back office screens are another engineer's). */
async function adminCookie(): Promise<string> {
  const response = await fetch(`${e2e.store.url}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: e2e.store.url },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  expect(response.status).toBe(200);
  return (response.headers.getSetCookie()[0] ?? '').split(';')[0] as string;
}

async function admin(cookie: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${e2e.store.url}${path}`, {
    method,
    headers: { cookie, origin: e2e.store.url, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  expect(response.ok, `${method} ${path}: ${response.status}`).toBe(true);
  return response.status === 204 ? null : response.json();
}

describe('checkout', () => {
  it('says the cart is empty and offers the products', async () => {
    const { page, errors, close } = await open();
    await page.goto('/checkout');
    await page.getByRole('heading', { name: 'Checkout', level: 1 }).waitFor();
    await page.getByText('Your cart is empty').waitFor();
    expect(await page.getByText('Add some products to checkout.').isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Browse Products' }).getAttribute('href')).toBe('/products');
    expect(await page.title()).toBe('Checkout | LicenseStore');
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toContain('noindex');
    expect(errors).toEqual([]);
    await close();
  });

  it('shows the summary, and the notice instead of the widget until name and e-mail are filled in', async () => {
    const [first, second] = products as [Product, Product];
    const { page, errors, close } = await open();
    await withCart(page, [
      { product: first, quantity: 2 },
      { product: second, quantity: 1 },
    ]);
    await page.goto('/checkout');
    const summary = page.getByRole('region', { name: 'Order Summary' });
    await summary.waitFor();
    const total = priceOf(first) * 2 + priceOf(second);
    const text = await summary.textContent();
    expect(text).toContain(first.name);
    expect(text).toContain('Qty: 2');
    expect(text).toContain(shownMoney(priceOf(first) * 2));
    expect(text).toContain('Tax$0.00');
    expect(text).toContain(`Total${shownMoney(total)}`);
    expect(await page.getByText('License keys will be sent to this email address').isVisible()).toBe(true);
    // Each line shows its product's picture; Edit cart opens the cart, whose changes the summary follows.
    expect(
      await summary
        .locator('li img')
        .evaluateAll((images) => images.map((image) => image.getAttribute('src'))),
    ).toEqual([first.imageUrl, second.imageUrl]);
    await summary.getByRole('button', { name: 'Edit cart' }).click();
    const panel = page.getByRole('dialog', { name: 'Shopping Cart' });
    await panel.getByRole('button', { name: `Increase quantity of ${second.name}` }).click();
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    await summary
      .getByText(`Total${shownMoney(total + priceOf(second))}`)
      .first()
      .waitFor();
    await summary.getByRole('button', { name: 'Edit cart' }).click();
    await panel.getByRole('button', { name: `Decrease quantity of ${second.name}` }).click();
    await page.keyboard.press('Escape');
    await summary
      .getByText(`Total${shownMoney(total)}`)
      .first()
      .waitFor();

    const notice = page.getByText(
      'Please fill in your name and email address above to proceed with payment.',
    );
    expect(await notice.isVisible()).toBe(true);
    expect(await page.getByText('PayPal button will appear here').isVisible()).toBe(true);
    await page.getByLabel('Full Name *').fill(' A ');
    await page.getByLabel('Email Address *').fill('ada@example.com');
    expect(await notice.isVisible()).toBe(true);
    await page.getByLabel('Full Name *').fill('Ad');
    await notice.waitFor({ state: 'detached' });
    await paypalButton(page).waitFor();
    expect(
      await page.getByText('Click the button below to pay securely with your PayPal account.').isVisible(),
    ).toBe(true);
    expect(await page.getByText('Secure payment powered by PayPal').isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await close();
  });

  it('shows the validation messages when a field is left, with aria-invalid and aria-describedby', async () => {
    const { page, close } = await open();
    await withCart(page, [{ product: products[0] as Product, quantity: 1 }]);
    await page.goto('/checkout');
    const name = page.getByLabel('Full Name *');
    const email = page.getByLabel('Email Address *');
    await name.fill('A');
    await email.focus();
    await page.getByText('Name must be at least 2 characters').waitFor();
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    expect(await name.getAttribute('aria-describedby')).toBe('customerName-error');
    await email.fill('not-an-address');
    await name.focus();
    await page.getByText('Please enter a valid email address').waitFor();
    expect(await email.getAttribute('aria-describedby')).toBe('customerEmail-hint customerEmail-error');
    await name.fill('Ada');
    expect(await name.getAttribute('aria-invalid')).toBeNull();
    await close();
  });

  it('buys through the PayPal button: toast, cart emptied, confirmation after 1.5 s whose keys are pushed', async () => {
    const product = products[0] as Product;
    const cookie = await adminCookie();
    // No stock left: the order waits for a key, and the page must show it arrive without being asked.
    const stock = (await admin(cookie, 'GET', '/api/license-keys')) as Array<{
      id: string;
      productId: string;
      assigned: boolean;
    }>;
    for (const key of stock.filter((each) => each.productId === product.id && !each.assigned)) {
      await admin(cookie, 'DELETE', `/api/license-keys/${key.id}`);
    }

    const { page, errors, close } = await open();
    const orderReads: string[] = [];
    const checkoutStarts: unknown[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (/\/api\/orders\/[^/]+(\/items)?$/.test(pathname)) orderReads.push(request.url());
      if (pathname === '/paypal/order') checkoutStarts.push(request.postDataJSON());
    });
    await withCart(page, [{ product, quantity: 1 }]);
    await page.goto('/checkout');
    await recordRedirectTime(page);
    await fillCustomer(page);
    await paypalButton(page).click();
    await toastSaying(
      page,
      'Payment successful!',
      'Your order has been confirmed. License keys will be sent to your email.',
    );
    expect(await storedCart(page)).toEqual([]);
    // The buyer goes with the checkout's start: a payment whose answer never reaches the page is still theirs.
    expect(checkoutStarts).toEqual([
      expect.objectContaining({ customerName: 'Ada Lovelace', customerEmail: 'ada@example.com' }),
    ]);
    await page.waitForURL(/\/order-confirmation\//);
    // Timed on the page's own clock, which the test runner's load cannot stretch: the capture's answer, then 1.5 s.
    const { capturedAt, redirectedAt } = await redirectTimes(page);
    expect(redirectedAt - capturedAt).toBeGreaterThanOrEqual(REDIRECT_DELAY_MS);
    const orderId = page.url().split('/').pop() as string;

    const heading = page.getByRole('heading', { name: 'Order Confirmed!' });
    await heading.waitFor();
    // Keyboard and screen-reader users continue from the verdict, not from the top of the page.
    expect(await heading.evaluate((element) => element === document.activeElement)).toBe(true);
    const body = page.locator('main');
    expect(await body.textContent()).toContain('Thank you for your purchase, Ada Lovelace');
    expect(await body.textContent()).toContain(`#${orderId.slice(0, 8).toUpperCase()}`);
    // No key in stock yet, so no delivery e-mail either.
    expect(await body.textContent()).toContain(
      'A confirmation email will be sent to ada@example.com as soon as your license keys are ready.',
    );
    expect(await body.textContent()).toContain(`Quantity: 1`);
    expect(await body.textContent()).toContain(`${product.name} x 1`);
    for (const text of ['Check your email', 'Download your software', 'Activate with your license key']) {
      expect(await page.getByText(text, { exact: true }).isVisible()).toBe(true);
    }
    expect(await page.getByRole('link', { name: 'Back to Home' }).getAttribute('href')).toBe('/');
    await page.getByText('License key will be emailed shortly...').waitFor();

    const key = `PUSH${randomUUID().slice(0, 1).toUpperCase()}-E2E00-KEY00-TEST0-00001`;
    await admin(cookie, 'POST', '/api/license-keys', { productId: product.id, key });
    const copy = page.getByRole('button', { name: `Copy license key ${key} for ${product.name}` });
    await copy.waitFor({ timeout: 30_000 });
    await page.getByText('License key will be emailed shortly...').waitFor({ state: 'detached' });
    await page
      .getByText('A confirmation email has been sent to ada@example.com')
      .waitFor({ timeout: 30_000 });
    // The page read the order once; what came after was pushed.
    expect(orderReads.filter((url) => url.endsWith(orderId))).toHaveLength(1);

    await copy.click();
    await toastSaying(page, 'Copied!', 'License key copied to clipboard.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    expect(errors).toEqual([]);
    await close();
  });

  it('buys with a card: Pay {amount} USD, then the confirmation', async () => {
    const product = products[1] as Product;
    const { page, errors, close } = await open();
    await withCart(page, [{ product, quantity: 3 }]);
    await page.goto('/checkout');
    await fillCustomer(page, 'Grace Hopper', 'grace@example.org');
    await page.getByRole('tab', { name: 'Debit or Credit Card' }).click();
    for (const label of ['Cardholder Name', 'Card Number', 'Expiry Date', 'CVV']) {
      await page.getByRole('group', { name: label }).waitFor();
    }
    await page.getByPlaceholder('MM/YY').waitFor();
    await fillCard(page, '4111111111111111');
    await page.getByRole('button', { name: `Pay ${(priceOf(product) * 3).toFixed(2)} USD` }).click();
    await toastSaying(page, 'Payment successful!', 'License keys will be sent to your email.');
    await page.waitForURL(/\/order-confirmation\//);
    await page.getByText('Thank you for your purchase, Grace Hopper').waitFor();
    expect(errors).toEqual([]);
    await close();
  });

  it('says Payment failed and keeps the cart when the card is declined', async () => {
    const { page, close } = await open();
    await withCart(page, [{ product: products[2] as Product, quantity: 1 }]);
    await page.goto('/checkout');
    await fillCustomer(page);
    await page.getByRole('tab', { name: 'Debit or Credit Card' }).click();
    await page.getByLabel('Card number').waitFor();
    await fillCard(page, '4000000000009995');
    await page.getByRole('button', { name: /^Pay / }).click();
    await toastSaying(
      page,
      'Payment failed',
      'There was an error processing your payment. Please try again.',
    );
    expect(await storedCart(page)).toHaveLength(1);
    expect(page.url()).toMatch(/\/checkout$/);
    expect(await page.getByLabel('Full Name *').isEnabled()).toBe(true);
    await close();
  });

  it('restarts the PayPal approval after a declined instrument, and the payment goes through', async () => {
    const { page, close } = await open();
    await withCart(page, [{ product: products[3] as Product, quantity: 1 }]);
    await page.goto('/checkout');
    await fillCustomer(page);
    await page.getByLabel('Sandbox buyer').selectOption('decline');
    await paypalButton(page).click();
    await toastSaying(page, 'Payment successful!', 'Your order has been confirmed.');
    await page.waitForURL(/\/order-confirmation\//);
    await close();
  });

  it('says Payment cancelled and keeps the cart when the buyer cancels', async () => {
    const { page, close } = await open();
    await withCart(page, [{ product: products[4] as Product, quantity: 2 }]);
    await page.goto('/checkout');
    await fillCustomer(page);
    await page.getByLabel('Sandbox buyer').selectOption('cancel');
    await paypalButton(page).click();
    await toastSaying(page, 'Payment cancelled', 'You cancelled the payment. Your cart has been preserved.');
    expect(await storedCart(page)).toMatchObject([{ quantity: 2 }]);
    expect(await page.getByRole('region', { name: 'Order Summary' }).isVisible()).toBe(true);
    await close();
  });

  it('shows Processing payment... and disables the form while paying', async () => {
    const { page, close } = await open();
    await withCart(page, [{ product: products[5] as Product, quantity: 1 }]);
    // The capture is held until the test has looked.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/paypal/order/*/capture', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/checkout');
    await fillCustomer(page);
    await paypalButton(page).click();
    const processing = page.getByText('Processing payment...');
    await processing.waitFor();
    // Beside PayPal's button, never over it: the two boxes share no point.
    const [status, button] = await Promise.all([processing.boundingBox(), paypalButton(page).boundingBox()]);
    if (!status || !button) throw new Error('the status or the PayPal button is not on screen');
    const apart =
      status.y + status.height <= button.y ||
      button.y + button.height <= status.y ||
      status.x + status.width <= button.x ||
      button.x + button.width <= status.x;
    expect({ status, button, apart }).toMatchObject({ apart: true });
    expect(await page.getByLabel('Full Name *').isDisabled()).toBe(true);
    expect(await page.getByLabel('Email Address *').isDisabled()).toBe(true);
    release();
    await page.waitForURL(/\/order-confirmation\//);
    await close();
  });

  it('shows Card Payments Not Available when PayPal says cards are not eligible', async () => {
    const { page, close } = await open();
    // The emulator's client id for an account without advanced card payments (NO_CARDS_CLIENT_ID), given to the
    // page as its payments config would; the SDK reads it from its own script URL.
    await page.route('**/api/payments/config', async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, json: { ...(await response.json()), clientId: NO_CARDS_CLIENT_ID } });
    });
    await withCart(page, [{ product: products[0] as Product, quantity: 1 }]);
    await page.goto('/checkout');
    await fillCustomer(page);
    await page.getByRole('tab', { name: 'Debit or Credit Card' }).click();
    await page.getByRole('heading', { name: 'Card Payments Not Available' }).waitFor();
    expect(await page.getByText('Please use the PayPal option instead.', { exact: false }).isVisible()).toBe(
      true,
    );
    await close();
  });
});

describe('order confirmation', () => {
  it('says Order Not Found for an unknown order', async () => {
    const { page, errors, close } = await open();
    await page.goto(`/order-confirmation/${randomUUID()}`);
    await page.getByRole('heading', { name: 'Order Not Found' }).waitFor();
    expect(await page.getByText("The order you're looking for doesn't exist.").isVisible()).toBe(true);
    // Chromium logs the 404 answer itself; nothing else went wrong.
    expect(errors.filter((error) => !error.includes('404'))).toEqual([]);
    await close();
  });

  describe('opened by someone other than the paying browser', () => {
    const email = `ada-${randomUUID()}@example.com`;
    // A product no other case here empties of keys.
    const product = () => products[8] as Product;
    let order: Awaited<ReturnType<typeof purchase>>;
    let key: string;

    beforeAll(async () => {
      order = await purchase(e2e.store.url, { name: 'Ada Lovelace', email }, [
        { product: product(), quantity: 1 },
      ]);
      key = (await waitForLicenseKeys(e2e.store.url, order))[0]?.licenseKeys[0] as string;
    });

    /** The delivery e-mail's link to the order, as the store wrote it into DATA_DIR/mail. */
    const deliveryLink = async () =>
      new URL(orderLinkIn(await deliveryEmailTo(e2e.store.dataDir, email)).url);

    it('says where the keys went and how to open them, without showing them', async () => {
      const { page, errors, close } = await open();
      await page.goto(`/order-confirmation/${order.id}`);
      await page.getByRole('heading', { name: 'Order Confirmed!' }).waitFor();
      const notice = page.getByRole('note');
      await notice.waitFor();
      expect(await notice.textContent()).toBe(
        'Your license keys were sent to a•••@example.com. Open the link in that email to see them here, or sign in with that address to see them under My Orders.',
      );
      expect(await notice.getByRole('link', { name: 'sign in with that address' }).getAttribute('href')).toBe(
        '/api/login',
      );
      expect(await page.getByText('License key sent by email.').isVisible()).toBe(true);
      await page.getByText('A confirmation email has been sent to a•••@example.com').waitFor();
      expect(await page.content()).not.toContain(key);
      await page.screenshot({ path: join(tmpdir(), 'order-confirmation-keys-withheld.png'), fullPage: true });
      expect(errors).toEqual([]);
      await close();
    });

    it("opens them through the delivery e-mail's link, and drops its token from the address", async () => {
      const link = await deliveryLink();
      expect(link.hash).toMatch(/^#access=[\w-]{43}$/);
      const { page, errors, close } = await open();
      await page.goto(`${link.pathname}${link.hash}`);
      await page.getByRole('button', { name: `Copy license key ${key} for ${product().name}` }).waitFor();
      expect(new URL(page.url()).hash).toBe('');
      expect(await page.getByRole('note').count()).toBe(0);
      // The cookie it got opens them on a reload too.
      await page.reload();
      await page.getByText(key, { exact: true }).waitFor();
      expect(errors).toEqual([]);
      await close();
    });

    it('says so when the link does not open this order', async () => {
      const { page, errors, close } = await open();
      await page.goto(`/order-confirmation/${order.id}#access=${'x'.repeat(43)}`);
      await page.getByText('This link does not open the keys of this order.').waitFor();
      expect(new URL(page.url()).hash).toBe('');
      // Chromium logs the 403 answer itself; nothing else went wrong.
      expect(errors.filter((error) => !error.includes('403'))).toEqual([]);
      await close();
    });
  });
});

/**
 * The emulator's button and its select stand for PayPal's own iframe (cross-origin, out of axe's reach at PayPal);
 * their look is the emulator's, not the store's. The emulator's "Sandbox buyer" label sits on the store's page and is
 * held to its contrast all the same.
 */
const EMULATOR_CONTROL = /paypal-sandbox-(?:button(?!s)|choice)|^select$/;
const storeViolations = async (page: Page) =>
  (await seriousA11yViolations(page)).filter(
    (violation) => !violation.targets.every((target) => EMULATOR_CONTROL.test(target)),
  );

describe('accessibility', () => {
  it.each(['light', 'dark'] as const)(
    'checkout and confirmation have no serious or critical axe violations (%s)',
    async (colorScheme) => {
      const { page, close } = await open({ colorScheme });
      await page.addInitScript((theme) => localStorage.setItem('theme', theme), colorScheme);
      await withCart(page, [{ product: products[6] as Product, quantity: 1 }]);
      await page.goto('/checkout');
      await page.getByLabel('Full Name *').waitFor();
      expect(await storeViolations(page)).toEqual([]);
      await fillCustomer(page);
      await paypalButton(page).waitFor();
      expect(await storeViolations(page)).toEqual([]);
      await page.getByRole('tab', { name: 'Debit or Credit Card' }).click();
      await page.getByRole('button', { name: /^Pay / }).waitFor();
      expect(await storeViolations(page)).toEqual([]);
      await page.getByRole('tab', { name: 'PayPal' }).click();
      await paypalButton(page).click();
      await page.waitForURL(/\/order-confirmation\//);
      await page.getByRole('heading', { name: 'Order Confirmed!' }).waitFor();
      expect(await storeViolations(page)).toEqual([]);
      await close();
    },
  );

  it('fits a phone screen without sideways scrolling', async () => {
    const { page, close } = await open({ viewport: PHONE });
    await withCart(page, [{ product: products[7] as Product, quantity: 1 }]);
    await page.goto('/checkout');
    await fillCustomer(page);
    await paypalButton(page).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await close();
  });
});
