// The README's screenshots (docs/screenshots/*.png), taken from a running store with the demo catalogue:
//   ADMIN_PASSWORD=… npm run screenshots               (the store at http://localhost:5000)
//   STORE_URL=http://localhost:5001 ADMIN_PASSWORD=… npm run screenshots
// It places one order through the PayPal emulator's button, so run it against a store with simulated payments.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Product } from '@licensestore/domain';
import type { Page } from 'playwright-core';
import { signInToBackOffice } from './admin.js';
import { fillCustomer, paypalButton, withCart } from './checkout-page.js';
import { launchBrowser } from './chromium.js';

const STORE_URL = process.env.STORE_URL ?? 'http://localhost:5000';
const ADMIN_USERNAME = process.env.ADMIN_USERNAME ?? 'admin';
const ADMIN_PASSWORD = process.env.ADMIN_PASSWORD;
const OUT_DIR = fileURLToPath(new URL('../../../docs/screenshots', import.meta.url));
/** A laptop screen, in the light theme. */
const VIEWPORT = { width: 1366, height: 768 } as const;

if (!ADMIN_PASSWORD) {
  console.error('Set ADMIN_PASSWORD to the password of the admin the store printed at its first start.');
  process.exit(2);
}

const products = (await (await fetch(`${STORE_URL}/api/products`)).json()) as Product[];
// A product on sale and in stock shows the most on its page: the badge, both prices, Add to Cart.
const product = products.find((each) => each.inStock && each.salePrice !== null) ?? products[0];
if (!product) throw new Error(`${STORE_URL} has no products: start it with the demo catalogue`);

const browser = await launchBrowser();
await mkdir(OUT_DIR, { recursive: true });

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ baseURL: STORE_URL, viewport: VIEWPORT, colorScheme: 'light' });
  const page = await context.newPage();
  await page.addInitScript(() => localStorage.setItem('theme', 'light'));
  return page;
}

/** Waits until every image on screen has loaded, then takes the screen as it is (not the full page). */
async function shoot(page: Page, name: string): Promise<void> {
  // Images further down load lazily, only when scrolled to.
  await page.waitForFunction(() =>
    [...document.images]
      .filter((image) => image.getBoundingClientRect().top < window.innerHeight)
      .every((image) => image.complete),
  );
  // No hover or focus ring left from the last action.
  await page.mouse.move(0, 0);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const path = join(OUT_DIR, `${name}.png`);
  await page.screenshot({ path });
  console.log(`wrote ${path}`);
}

try {
  const shop = await newPage();
  await shop.goto('/');
  await shop.getByRole('heading', { name: 'Featured Products' }).waitFor();
  await shop.getByTestId('product-card-skeleton').first().waitFor({ state: 'detached' });
  await shoot(shop, 'home');

  await shop.goto(`/product/${product.id}`);
  await shop.getByRole('heading', { name: product.name, level: 1 }).waitFor();
  await shoot(shop, 'product');

  await withCart(shop, [{ product, quantity: 1 }]);
  await shop.goto('/checkout');
  await fillCustomer(shop, 'Ada Lovelace', 'ada@example.com');
  await paypalButton(shop).waitFor();
  await shoot(shop, 'checkout');

  await paypalButton(shop).click();
  await shop.waitForURL(/\/order-confirmation\//);
  await shop.getByRole('heading', { name: 'Order Confirmed!' }).waitFor();
  // The workers assign the keys within seconds of the capture; the page shows them as they arrive.
  await shop
    .getByRole('button', { name: /^Copy license key/ })
    .first()
    .waitFor();
  await shoot(shop, 'confirmation');
  const orderId = new URL(shop.url()).pathname.split('/').pop();

  const admin = await newPage();
  await signInToBackOffice(admin, ADMIN_USERNAME, ADMIN_PASSWORD);
  await admin.getByRole('heading', { name: 'Recent Orders' }).waitFor();
  await admin.getByText('Ada Lovelace').first().waitFor();
  await shoot(admin, 'admin-dashboard');

  await admin.goto(`/admin/orders/${orderId}`);
  await admin.getByText('Ada Lovelace').first().waitFor();
  await shoot(admin, 'admin-order');
} finally {
  await browser.close();
}
