import type { Product } from '@licensestore/shared';
import type { Page } from 'playwright-core';

/** What the cart charges for a product: the sale price when there is one (spec section 4). */
export const priceOf = (product: Product) => Number(product.salePrice ?? product.regularPrice);

/** The cart as the cart feature stores it (spec section 4), written before the app reads it. */
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
