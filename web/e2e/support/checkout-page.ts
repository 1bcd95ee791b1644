import type { Product } from '@licensestore/domain';
import type { Page } from 'playwright-core';

/** What the cart charges for a product: the sale price when there is one. */
export const priceOf = (product: Product) => Number(product.salePrice ?? product.regularPrice);

/** The cart as the cart feature stores it (local storage, key `cart`), written before the app reads it. */
export async function withCart(page: Page, lines: Array<{ product: Product; quantity: number }>) {
  const cart = lines.map(({ product, quantity }) => ({
    productId: product.id,
    productName: product.name,
    price: priceOf(product),
    imageUrl: product.imageUrl,
    quantity,
  }));
  await page.addInitScript((stored) => {
    if (sessionStorage.getItem('cart-seeded')) return;
    sessionStorage.setItem('cart-seeded', 'yes');
    localStorage.setItem('cart', stored);
  }, JSON.stringify(cart));
}

export const storedCart = (page: Page) =>
  page.evaluate(() => JSON.parse(localStorage.getItem('cart') ?? '[]'));

export async function fillCustomer(page: Page, name = 'Ada Lovelace', email = 'ada@example.com') {
  await page.getByLabel('Full Name *').fill(name);
  await page.getByLabel('Email Address *').fill(email);
}

/** The emulator's PayPal button (PayPal's own, in its iframe, in production). */
export const paypalButton = (page: Page) => page.getByRole('button', { name: 'PayPal', exact: true });

const expiryNextYear = () => `08/${String((new Date().getFullYear() + 1) % 100).padStart(2, '0')}`;

/** Types a card into the emulator's card fields: this number, a name, an expiry next year and a CVV. */
export async function fillCard(page: Page, number: string) {
  await page.getByLabel('Cardholder name').fill('Ada Lovelace');
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiration date').fill(expiryNextYear());
  await page.getByLabel('Security code').fill('123');
}

/** How long the success toast stays on the checkout page before the confirmation replaces it. */
export const REDIRECT_DELAY_MS = 1500;

/** Makes the page note, on its own clock, when the app first navigates to an order's confirmation. */
export const recordRedirectTime = (page: Page) =>
  page.evaluate(() => {
    const pushState = history.pushState.bind(history);
    history.pushState = (data, unused, url) => {
      const marks = window as { redirectedAt?: number };
      if (marks.redirectedAt === undefined && String(url).includes('/order-confirmation/')) {
        marks.redirectedAt = performance.now();
      }
      pushState(data, unused, url);
    };
  });

/** When the capture's answer arrived and when the app navigated (after `recordRedirectTime`), on the page's clock. */
export const redirectTimes = (page: Page) =>
  page.evaluate(() => {
    const capture = performance
      .getEntriesByType('resource')
      .find((entry) => /\/paypal\/order\/[^/]+\/capture$/.test(new URL(entry.name).pathname));
    if (!capture) throw new Error('no capture request on this page');
    const { redirectedAt } = window as { redirectedAt?: number };
    if (redirectedAt === undefined) throw new Error('the page never navigated to a confirmation');
    return { capturedAt: (capture as PerformanceResourceTiming).responseEnd, redirectedAt };
  });
