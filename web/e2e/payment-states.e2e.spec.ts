import { randomUUID } from 'node:crypto';
import type { Product } from '@licensestore/domain';
import { clientAuthorization } from '@licensestore/paypal-sandbox/credentials';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { mailFiles } from '../../test/support/mail.js';
import { openPage, seriousA11yViolations, type TestPage, toastSaying } from './support/browser.js';
import { fillCard, fillCustomer, paypalButton, storedCart, withCart } from './support/checkout-page.js';
import { purchasableProducts } from './support/purchases.js';
import { storeAndBrowserForThisFile } from './support/store-and-browser.js';

const e2e = storeAndBrowserForThisFile();
let products: Product[];

beforeAll(async () => {
  products = await purchasableProducts(e2e.store.url);
});

const open = (options: Parameters<typeof openPage>[2] = {}): Promise<TestPage> =>
  openPage(e2e.browser, e2e.store.url, options);

/** The PayPal order id of the page's capture request, once the page has made it. */
function capturedPaypalOrder(page: Page): Promise<string> {
  return new Promise((resolve) => {
    page.on('request', (request) => {
      const match = /\/paypal\/order\/([A-Z0-9]+)\/capture$/.exec(new URL(request.url()).pathname);
      if (match) resolve(match[1] as string);
    });
  });
}

/** What PayPal does at the end of its review: the emulator settles the capture and delivers the webhook. */
async function settleReview(paypalOrderId: string, result: 'complete' | 'deny') {
  const response = await fetch(
    `${e2e.store.url}/paypal-sandbox/simulate/orders/${paypalOrderId}/${result}?wait=true`,
    {
      method: 'POST',
      headers: { authorization: clientAuthorization() },
    },
  );
  expect(response.status).toBe(200);
  expect(((await response.json()) as { delivery: { delivered: boolean } }).delivery.delivered).toBe(true);
}

/** Pays for one unit with the PayPal button, the sandbox buyer's payment held for review; the order page opens. */
async function payUnderReview(page: Page, product: Product, email: string) {
  await withCart(page, [{ product, quantity: 1 }]);
  await page.goto('/checkout');
  await fillCustomer(page, 'Ada Lovelace', email);
  const paypalOrder = capturedPaypalOrder(page);
  await page.getByLabel('Sandbox buyer').selectOption('pending');
  await paypalButton(page).click();
  await toastSaying(
    page,
    'Payment under review',
    'PayPal is reviewing your payment. Your order page shows when it is complete.',
  );
  expect(await storedCart(page)).toEqual([]);
  await page.waitForURL(/\/order-confirmation\//);
  await page.getByRole('heading', { name: 'Payment under review', level: 1 }).waitFor();
  // Whatever happens next must reach this very page: a reload would forget the mark.
  await page.evaluate(() => {
    (window as unknown as { unreloaded: boolean }).unreloaded = true;
  });
  return paypalOrder;
}

const stillTheSamePage = (page: Page) =>
  page.evaluate(() => (window as unknown as { unreloaded?: boolean }).unreloaded === true);

const mailTo = async (email: string) =>
  [...(await mailFiles(e2e.store.dataDir)).values()].filter((mail) => mail.to.includes(email));

describe('a payment PayPal holds for review', () => {
  it('says so and what happens next, then turns into the confirmation with keys by itself once PayPal completes it', async () => {
    const email = `review-${randomUUID()}@example.com`;
    const { page, errors, close } = await open();
    const paypalOrderId = await payUnderReview(page, products[0] as Product, email);

    const main = page.locator('main');
    const text = await main.textContent();
    expect(text).toContain('Thank you, Ada Lovelace. PayPal is reviewing your payment.');
    expect(text).toContain('usually within minutes and at most within 24 hours');
    expect(text).toContain('There is nothing you need to do');
    expect(text).toContain(`Your license keys will be sent to ${email} once PayPal completes the payment.`);
    expect(text).toContain('License key will be emailed once PayPal completes the payment.');
    for (const claim of ['Order Confirmed!', 'Payment successful', 'has been sent', 'Check your email']) {
      expect(text).not.toContain(claim);
    }
    expect(await mailTo(email)).toEqual([]);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await settleReview(paypalOrderId, 'complete');
    await page.getByRole('heading', { name: 'Order Confirmed!', level: 1 }).waitFor({ timeout: 30_000 });
    expect(await main.textContent()).toContain('Thank you for your purchase, Ada Lovelace');
    await page.getByRole('button', { name: /^Copy license key / }).waitFor({ timeout: 30_000 });
    await page.getByText(`A confirmation email has been sent to ${email}`).waitFor({ timeout: 30_000 });
    // "Sent" only once it was: the store wrote the e-mail before it recorded it as sent.
    expect(await mailTo(email)).toHaveLength(1);
    expect(await stillTheSamePage(page)).toBe(true);
    expect(errors).toEqual([]);
    await close();
  });

  it('says the payment was declined and no money was taken when PayPal denies it', async () => {
    const email = `denied-${randomUUID()}@example.com`;
    const { page, errors, close } = await open();
    const paypalOrderId = await payUnderReview(page, products[1] as Product, email);

    await settleReview(paypalOrderId, 'deny');
    await page.getByRole('heading', { name: 'Payment declined', level: 1 }).waitFor({ timeout: 30_000 });
    const text = await page.locator('main').textContent();
    expect(text).toContain('Sorry, Ada Lovelace. PayPal declined this payment.');
    expect(text).toContain('No money was taken and no license keys will be sent for this order.');
    expect(text).not.toContain('will be sent to');
    expect(await page.getByRole('region', { name: 'Your License Keys' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Browse Products' }).getAttribute('href')).toBe('/products');
    expect(await stillTheSamePage(page)).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  });
});

describe('a refused payment', () => {
  /** Pays by card with this number; the card tab's Pay button is pressed once. */
  async function payByCard(page: Page, number: string) {
    await withCart(page, [{ product: products[2] as Product, quantity: 1 }]);
    await page.goto('/checkout');
    await fillCustomer(page);
    await page.getByRole('tab', { name: 'Debit or Credit Card' }).click();
    await page.getByLabel('Card number').waitFor();
    await fillCard(page, number);
    await page.getByRole('button', { name: /^Pay / }).click();
  }

  it.each([
    ['when PayPal checks the card', '4000000000009995', 'PAYMENT_SOURCE_DECLINED_BY_PROCESSOR'],
    ['at capture', '4000000000000002', 'INSTRUMENT_DECLINED'],
  ])(
    'names what to do when a card is declined %s, PayPal code small, its own words never',
    async (_case, number, issue) => {
      const { page, close } = await open();
      await payByCard(page, number);
      const alert = page.getByRole('alert').filter({ hasText: 'Your card was declined.' });
      await alert.waitFor({ timeout: 30_000 });
      expect(await alert.textContent()).toBe(
        `Your card was declined. Try another card or pay with PayPal.Code: ${issue}`,
      );
      const code = alert.getByText(`Code: ${issue}`);
      expect(await code.evaluate((element) => getComputedStyle(element).fontSize)).toBe('12px');
      const text = await page.locator('main').textContent();
      expect(text).not.toContain(`${issue}:`);
      expect(text).not.toContain('The instrument presented');
      expect(await storedCart(page)).toHaveLength(1);
      await close();
    },
  );

  it("says PayPal is not answering when its capture keeps failing, in the store's own words", async () => {
    const { page, close } = await open();
    await payByCard(page, '4000000000000119');
    const alert = page.getByRole('alert').filter({ hasText: 'PayPal is not answering right now' });
    await alert.waitFor({ timeout: 30_000 });
    expect(await alert.textContent()).toBe(
      'PayPal is not answering right now; please try again in a moment.',
    );
    expect(await page.locator('main').textContent()).not.toContain('INTERNAL_SERVER_ERROR');
    await close();
  });
});

describe('the payment form', () => {
  it('marks each card field by itself: empty ones on Pay, wrong ones when left, cleared when put right', async () => {
    const { page, errors, close } = await open();
    await withCart(page, [{ product: products[3] as Product, quantity: 1 }]);
    await page.goto('/checkout');
    await fillCustomer(page);
    await page.getByRole('tab', { name: 'Debit or Credit Card' }).click();
    const pay = page.getByRole('button', { name: /^Pay / });
    await page.getByLabel('Card number').waitFor();
    await pay.click();
    const group = (name: string) => page.getByRole('group', { name });
    await group('Cardholder Name').getByText('Enter the name on the card').waitFor();
    expect(await group('Card Number').getByText('Enter the card number').isVisible()).toBe(true);
    expect(await group('Expiry Date').getByText('Enter the expiry date').isVisible()).toBe(true);
    expect(await group('CVV').getByText('Enter the CVV').isVisible()).toBe(true);
    expect(await group('Card Number').getAttribute('aria-describedby')).toBe('card-number-message');

    await page.getByLabel('Card number').fill('4111 1111 1111 1112');
    await page.getByLabel('Expiration date').focus();
    await group('Card Number').getByText('Check the card number').waitFor();
    await page.getByLabel('Card number').fill('4111 1111 1111 1111');
    await group('Card Number').getByText('Check the card number').waitFor({ state: 'detached' });
    expect(await group('Card Number').getAttribute('aria-describedby')).toBeNull();
    await page.getByLabel('Expiration date').fill('13/40');
    await page.getByLabel('Security code').focus();
    await group('Expiry Date').getByText('Check the expiry date').waitFor();
    // The others keep their own messages.
    expect(await group('Cardholder Name').getByText('Enter the name on the card').isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await close();
  });

  it('keeps payment locked while the e-mail address is not valid ("pat@"), with the message that says so', async () => {
    const { page, errors, close } = await open();
    await withCart(page, [{ product: products[4] as Product, quantity: 1 }]);
    await page.goto('/checkout');
    await page.getByLabel('Full Name *').fill('Pat Smith');
    await page.getByLabel('Email Address *').fill('pat@');
    await page.getByLabel('Full Name *').focus();
    await page.getByText('Please enter a valid email address').waitFor();
    expect(
      await page
        .getByText('Please fill in your name and email address above to proceed with payment.')
        .isVisible(),
    ).toBe(true);
    expect(await page.getByText('PayPal button will appear here').isVisible()).toBe(true);
    expect(await paypalButton(page).count()).toBe(0);

    await page.getByLabel('Email Address *').fill('pat@example.com');
    await paypalButton(page).waitFor();
    expect(await page.getByText('Please enter a valid email address').count()).toBe(0);
    expect(errors).toEqual([]);
    await close();
  });
});
