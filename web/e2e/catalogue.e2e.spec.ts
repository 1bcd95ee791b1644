import type { TestimonialView } from '@licensestore/contract/testimonials';
import type { Product } from '@licensestore/domain';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { arriveInBrowser, hold, openPage, PHONE, seriousA11yViolations } from './support/browser.js';
import { priceOf, withCart } from './support/checkout-page.js';
import { shownMoney } from './support/money.js';
import { storeAndBrowserForThisFile } from './support/store-and-browser.js';

const e2e = storeAndBrowserForThisFile();
let products: Product[];
let featured: Product[];
let testimonials: TestimonialView[];

const getJson = async <T>(path: string): Promise<T> =>
  (await fetch(new URL(path, e2e.store.url))).json() as Promise<T>;

beforeAll(async () => {
  [products, featured, testimonials] = await Promise.all([
    getJson<Product[]>('/api/products'),
    getJson<Product[]>('/api/products/featured'),
    getJson<TestimonialView[]>('/api/testimonials'),
  ]);
});

// The spec's rules, written out again from its text, so the page is checked against the spec and not against itself.
const cents = (amount: string) => Math.round(Number(amount) * 100);
const onSale = (product: Product) =>
  product.salePrice !== null && cents(product.salePrice) < cents(product.regularPrice);
const percentOff = (product: Product) =>
  Math.round(
    ((cents(product.regularPrice) - cents(product.salePrice as string)) / cents(product.regularPrice)) * 100,
  );
const brand = (category: string) => {
  const text = category.toLowerCase();
  if (text.includes('office') || text.includes('windows')) return 'Microsoft';
  if (text.includes('norton')) return 'Norton';
  if (text.includes('adobe')) return 'Adobe';
  return 'Generic';
};

const saleProduct = () => {
  const product = products.find((item) => onSale(item) && item.inStock);
  if (!product) throw new Error('the demo catalogue has no product on sale');
  return product;
};
const regularProduct = () => {
  const product = products.find((item) => !onSale(item) && item.inStock);
  if (!product) throw new Error('the demo catalogue has no product at its regular price');
  return product;
};
const outOfStockProduct = () => {
  const product = products.find((item) => !item.inStock);
  if (!product) throw new Error('the demo catalogue has no product out of stock');
  return product;
};
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** Every JSON-LD block of the page, parsed (a block that is not JSON fails the test). */
const jsonLd = async (page: Page): Promise<Record<string, unknown>[]> =>
  (await page.locator('script[type="application/ld+json"]').allTextContents()).map(
    (text) => JSON.parse(text) as Record<string, unknown>,
  );

/** The page's one JSON-LD block of a schema.org type, read as the shape the caller checks. */
async function blockOfType<T = Record<string, unknown>>(page: Page, type: string): Promise<T> {
  const blocks = (await jsonLd(page)).filter((block) => block['@type'] === type);
  expect(blocks, `one ${type} block`).toHaveLength(1);
  return blocks[0] as T;
}

interface ListItemData {
  name: string;
  item: string;
}
interface QuestionData {
  name: string;
  acceptedAnswer: { text: string };
}

/** The title and meta description are set in an effect, just after the render a click causes. */
const waitForTitle = (page: Page, title: string) =>
  page.waitForFunction((expected) => document.title === expected, title);

const metaDescription = (page: Page) => page.locator('meta[name="description"]').getAttribute('content');

const productCard = (page: Page, product: Product) => page.locator(`main a[href="/product/${product.id}"]`);

/** The text a product card must show: name, platform, category, price, sale badge, stock. */
async function expectCard(page: Page, product: Product) {
  const card = productCard(page, product);
  await card.waitFor();
  const text = (await card.textContent()) ?? '';
  expect(text).toContain(product.name);
  expect(text).toContain(product.platform);
  expect(text).toContain(product.category);
  expect(await card.locator('img').getAttribute('src')).toBe(product.imageUrl);
  if (onSale(product)) {
    expect(text).toContain(`${percentOff(product)}% OFF`);
    expect(text).toContain(shownMoney(product.salePrice as string));
    expect(await card.locator('s').textContent()).toContain(shownMoney(product.regularPrice));
  } else {
    expect(text).not.toContain('% OFF');
    expect(text).toContain(shownMoney(product.regularPrice));
  }
  expect(text).toContain(product.inStock ? 'In Stock' : 'Out of Stock');
}

describe('the home page', () => {
  it('shows the promo banner, hero, statistics, payment methods, reasons, steps, guarantee and call to action', async () => {
    const { page, errors, close } = await openPage(e2e.browser, e2e.store.url);
    await page.goto('/');
    await waitForTitle(page, 'Genuine Software Licenses | LicenseStore');

    const promo = page.getByRole('complementary', { name: 'Limited time offer' });
    expect(await promo.getByText('Limited Time Offer').isVisible()).toBe(true);
    expect(await promo.getByText('Save up to 50% on office products').isVisible()).toBe(true);

    const shopNow = page.getByRole('link', { name: 'Shop Now' });
    expect(await shopNow.getAttribute('href')).toBe('/products');

    const stats = page.getByRole('region', { name: 'Store in numbers' });
    for (const claim of [
      '50,000+',
      '4.8/5',
      '5,000+',
      '15 min',
      'Happy Customers',
      'Average Rating',
      'Average Delivery',
    ]) {
      expect(await stats.getByText(claim, { exact: true }).isVisible(), claim).toBe(true);
    }

    const payments = page.getByRole('main').getByRole('list', { name: 'Accepted payment methods' });
    expect(await payments.getByRole('listitem').count()).toBe(4);

    const why = page.getByRole('region', { name: 'Why Choose LicenseStore?' });
    expect(await why.getByRole('heading', { level: 3 }).allTextContents()).toEqual([
      'Lifetime Licenses',
      '100% Genuine',
      '24/7 Support',
      'Secure Payment',
    ]);
    const whyText = (await why.textContent()) ?? '';
    for (const claim of ['one-time payment', 'live chat', '30-day money-back guarantee']) {
      expect(whyText).toContain(claim);
    }

    const steps = page.getByRole('region', { name: 'How It Works' }).getByRole('listitem');
    expect(await steps.count()).toBe(3);
    expect((await steps.allTextContents()).map((text) => text.replace(/^Step \d: /, ''))).toEqual([
      expect.stringContaining('Choose Your Software'),
      expect.stringContaining('Secure Checkout'),
      expect.stringMatching(/Get Instant Access.*by email/),
    ]);

    const guarantee = page.getByRole('region', { name: '30-Day Money-Back Guarantee' });
    expect(await guarantee.isVisible()).toBe(true);

    const cta = page.getByRole('region', { name: 'Ready to Get Started?' });
    expect(await cta.getByRole('link', { name: 'Browse Full Catalog' }).getAttribute('href')).toBe(
      '/products',
    );
    expect(await cta.getByRole('link', { name: 'Contact Support' }).getAttribute('href')).toMatch(
      /^mailto:.+@/,
    );
    expect(errors).toEqual([]);
    await close();
  });

  it('shows 8 product and 6 testimonial placeholders while loading, then the first 8 featured products', async () => {
    const { page, errors, close } = await openPage(e2e.browser, e2e.store.url);
    const releaseProducts = await hold(page, '**/api/products/featured');
    const releaseTestimonials = await hold(page, '**/api/testimonials');
    await arriveInBrowser(page, '/');
    await page.getByText('Loading featured products').waitFor({ state: 'attached' });
    expect(await page.getByTestId('product-card-skeleton').count()).toBe(8);
    expect(await page.getByTestId('testimonial-skeleton').count()).toBe(6);

    releaseProducts();
    const section = page.getByRole('region', { name: 'Featured Products' });
    await section.getByRole('listitem').first().waitFor();
    expect(await page.getByTestId('product-card-skeleton').count()).toBe(0);
    expect(await page.getByTestId('testimonial-skeleton').count()).toBe(6);
    expect(featured.length).toBeGreaterThanOrEqual(8);
    expect(await section.getByRole('listitem').count()).toBe(8);
    for (const product of featured.slice(0, 8)) await expectCard(page, product);
    expect(await section.getByRole('link', { name: 'View All Products' }).getAttribute('href')).toBe(
      '/products',
    );

    releaseTestimonials();
    await page.getByRole('region', { name: 'What Our Customers Say' }).getByRole('figure').first().waitFor();
    expect(await page.getByTestId('testimonial-skeleton').count()).toBe(0);
    expect(errors).toEqual([]);
    await close();
  });

  it('shows every testimonial with its rating out of 5, comment, initial, name, location and date', async () => {
    const { page, close } = await openPage(e2e.browser, e2e.store.url);
    await page.goto('/');
    const section = page.getByRole('region', { name: 'What Our Customers Say' });
    await section.getByRole('figure').first().waitFor();
    expect(await section.getByRole('figure').count()).toBe(testimonials.length);
    for (const testimonial of testimonials) {
      const card = section.getByRole('figure').filter({ hasText: testimonial.customerName });
      expect(await card.getByRole('img', { name: `Rated ${testimonial.rating} out of 5` }).count()).toBe(1);
      const text = (await card.textContent()) ?? '';
      expect(text).toContain(testimonial.comment);
      expect(text).toContain(testimonial.location);
      expect(await card.locator('[aria-hidden="true"]', { hasText: /^[A-Z]$/ }).textContent()).toBe(
        testimonial.customerName.charAt(0),
      );
      const date = new Date(`${testimonial.date}T00:00:00Z`).toLocaleDateString('en-US', {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        timeZone: 'UTC',
      });
      expect(await card.locator('time').textContent()).toBe(date);
      expect(await card.locator('time').getAttribute('datetime')).toBe(testimonial.date);
    }
    await close();
  });

  it('centres a last row of testimonials that is not full under the rows above it', async () => {
    const { page, close } = await openPage(e2e.browser, e2e.store.url);
    await page.goto('/');
    const section = page.getByRole('region', { name: 'What Our Customers Say' });
    await section.getByRole('figure').first().waitFor();
    const boxes = await section
      .getByRole('listitem')
      .evaluateAll((items) => items.map((item) => item.getBoundingClientRect().toJSON() as DOMRect));
    const list = await section
      .getByRole('list')
      .evaluate((element) => element.getBoundingClientRect().toJSON() as DOMRect);
    const lastTop = Math.max(...boxes.map((box) => box.top));
    const lastRow = boxes.filter((box) => box.top === lastTop);
    const rowLeft = Math.min(...lastRow.map((box) => box.left));
    const rowRight = Math.max(...lastRow.map((box) => box.right));
    expect(Math.abs(rowLeft - list.left - (list.right - rowRight))).toBeLessThan(2);
    await close();
  });

  it('emits Organization structured data', async () => {
    const { page, close } = await openPage(e2e.browser, e2e.store.url);
    await page.goto('/');
    await page.getByRole('heading', { level: 1 }).waitFor();
    const organization = await blockOfType(page, 'Organization');
    expect(organization).toMatchObject({ '@context': 'https://schema.org', name: 'LicenseStore' });
    expect(organization.url).toBe(`${e2e.store.url}/`);
    await close();
  });
});

describe('the products page', () => {
  it('shows 8 placeholders while loading, then every product with its card texts', async () => {
    const { page, errors, close } = await openPage(e2e.browser, e2e.store.url);
    const release = await hold(page, '**/api/products');
    await arriveInBrowser(page, '/products');
    await page.getByText('Loading products').waitFor({ state: 'attached' });
    expect(await page.getByTestId('product-card-skeleton').count()).toBe(8);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('All Products');
    release();

    await productCard(page, products[0] as Product).waitFor();
    expect(await page.getByTestId('product-card-skeleton').count()).toBe(0);
    expect(await page.locator('main a[href^="/product/"]').count()).toBe(products.length);
    for (const product of products) await expectCard(page, product);
    expect(errors).toEqual([]);
    await close();
  });

  it('shows the breadcrumb Home > Products, visibly and as BreadcrumbList data', async () => {
    const { page, close } = await openPage(e2e.browser, e2e.store.url);
    await page.goto('/products');
    const trail = page.getByRole('navigation', { name: 'Breadcrumb' });
    await trail.waitFor();
    expect(await trail.getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/');
    expect(await trail.locator('[aria-current="page"]').textContent()).toBe('Products');
    const breadcrumbs = await blockOfType<{ itemListElement: unknown[] }>(page, 'BreadcrumbList');
    expect(breadcrumbs.itemListElement).toEqual([
      { '@type': 'ListItem', position: 1, name: 'Home', item: `${e2e.store.url}/` },
      { '@type': 'ListItem', position: 2, name: 'Products', item: `${e2e.store.url}/products` },
    ]);
    await close();
  });

  it('filters by category on the page, starting at All, and retitles the page', async () => {
    const { page, errors, close } = await openPage(e2e.browser, e2e.store.url);
    let productCalls = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/products') productCalls += 1;
    });
    await page.goto('/products');
    const filter = page.getByRole('group', { name: 'Filter by category' });
    await filter.getByRole('button').first().waitFor();

    const categories = [...new Set(products.map((product) => product.category))];
    expect(categories).toHaveLength(4);
    expect(await filter.getByRole('button').allTextContents()).toEqual(['All', ...categories]);
    expect(await filter.getByRole('button', { name: 'All' }).getAttribute('aria-pressed')).toBe('true');
    await waitForTitle(page, 'All Products | LicenseStore');
    const allDescription = await metaDescription(page);

    for (const category of categories) {
      await filter.getByRole('button', { name: category, exact: true }).click();
      expect(
        await filter.getByRole('button', { name: category, exact: true }).getAttribute('aria-pressed'),
      ).toBe('true');
      expect(await filter.getByRole('button', { name: 'All' }).getAttribute('aria-pressed')).toBe('false');
      const inCategory = products.filter((product) => product.category === category);
      expect(await page.locator('main a[href^="/product/"]').count()).toBe(inCategory.length);
      for (const product of inCategory) expect(await productCard(page, product).isVisible()).toBe(true);
      expect(await page.getByText(`${inCategory.length} product`).isVisible()).toBe(true);
      await waitForTitle(page, `${category} | LicenseStore`);
      const description = await metaDescription(page);
      expect(description).toContain(category);
      expect(description).not.toBe(allDescription);
    }

    await filter.getByRole('button', { name: 'All' }).click();
    expect(await page.locator('main a[href^="/product/"]').count()).toBe(products.length);
    await waitForTitle(page, 'All Products | LicenseStore');
    expect(await metaDescription(page)).toBe(allDescription);
    // The page arrived with the catalogue it was drawn from: choosing a category asks the store nothing.
    expect(productCalls).toBe(0);
    expect(errors).toEqual([]);
    await close();
  });

  it('says so when there are no products to show', async () => {
    const { page, close } = await openPage(e2e.browser, e2e.store.url);
    await page.route('**/api/products', (route) => route.fulfill({ json: [] }));
    await arriveInBrowser(page, '/products');
    await page.getByText('No products found in this category').waitFor();
    expect(await page.locator('main a[href^="/product/"]').count()).toBe(0);
    await close();
  });

  it('shows the error and loads again on Try again', async () => {
    const { page, close } = await openPage(e2e.browser, e2e.store.url);
    let failures = 1;
    await page.route('**/api/products', (route) =>
      failures-- > 0 ? route.fulfill({ status: 503, body: 'catalogue resting' }) : route.continue(),
    );
    await arriveInBrowser(page, '/products');
    const alert = page.getByRole('alert').filter({ hasText: "We couldn't load the products." });
    await alert.waitFor();
    // A proxy's page is no sentence for a shopper: the page says what happened in plain words.
    expect(await alert.getByText('The store could not answer. Try again in a moment.').isVisible()).toBe(
      true,
    );
    await alert.getByRole('button', { name: 'Try again' }).click();
    await productCard(page, products[0] as Product).waitFor();
    expect(await page.locator('main a[href^="/product/"]').count()).toBe(products.length);
    await close();
  });

  it('opens a product from its card', async () => {
    const { page, close } = await openPage(e2e.browser, e2e.store.url);
    const product = saleProduct();
    await page.goto('/products');
    await productCard(page, product).click();
    await page.waitForURL(`**/product/${product.id}`);
    await page.getByRole('heading', { level: 1, name: product.name }).waitFor();
    await close();
  });
});

describe('the sale', () => {
  it('opens the products on sale from the promo banner, and all of them again from the page', async () => {
    const { page, errors, close } = await openPage(e2e.browser, e2e.store.url);
    await page.goto('/');
    await page.getByRole('link', { name: 'Shop the sale' }).click();
    await page.waitForURL(/\/products\?sale$/);
    const onSaleCount = products.filter(onSale).length;
    const count = page.getByRole('heading', { level: 2, name: `${onSaleCount} products` });
    await count.waitFor();
    expect(await page.getByText('Showing products on sale.').isVisible()).toBe(true);
    expect(await page.title()).toBe('Products on Sale | LicenseStore');
    expect(await page.getByText(/^\d+% OFF$/).count()).toBe(onSaleCount);

    await page.getByRole('link', { name: 'Show all products' }).click();
    await page.getByRole('heading', { level: 2, name: `${products.length} products` }).waitFor();
    expect(await page.getByText('Showing products on sale.').count()).toBe(0);
    expect(errors).toEqual([]);
    await close();
  });
});

describe('the box art', () => {
  it('sits on the card itself in the dark theme, with no lighter slab behind it', async () => {
    const { page, close } = await openPage(e2e.browser, e2e.store.url, { colorScheme: 'dark' });
    await page.addInitScript(() => localStorage.setItem('theme', 'dark'));
    await page.goto('/products');
    await page.getByRole('heading', { level: 2, name: `${products.length} products` }).waitFor();
    const grounds = await page
      .locator('main a[href^="/product/"] img')
      .evaluateAll((images) =>
        images.map((image) => getComputedStyle(image.parentElement as Element).backgroundColor),
      );
    expect(grounds.length).toBe(products.length);
    expect(new Set(grounds)).toEqual(new Set(['rgba(0, 0, 0, 0)']));
    await close();
  });

  it("leaves each box's label uncovered by the sale badge on a phone", async () => {
    const { page, close } = await openPage(e2e.browser, e2e.store.url, { viewport: PHONE });
    await page.goto('/products');
    await page.getByRole('heading', { level: 2, name: `${products.length} products` }).waitFor();
    const overlaps = await page.locator('main a[href^="/product/"]').evaluateAll((cards) =>
      cards.flatMap((card) => {
        const picture = card.querySelector('img')?.getBoundingClientRect();
        const badge = [...card.querySelectorAll('span, div')].find((node) =>
          /^\d+% OFF$/.test(node.textContent ?? ''),
        );
        if (!picture || !badge) return [];
        const box = badge.getBoundingClientRect();
        const apart =
          box.bottom <= picture.top ||
          box.top >= picture.bottom ||
          box.right <= picture.left ||
          box.left >= picture.right;
        return apart ? [] : [card.querySelector('h3')?.textContent];
      }),
    );
    expect(await page.getByText(/^\d+% OFF$/).count()).toBe(products.filter(onSale).length);
    expect(overlaps).toEqual([]);
    await close();
  });
});

describe('the product page', () => {
  it('shows a placeholder while loading', async () => {
    const { page, close } = await openPage(e2e.browser, e2e.store.url);
    const product = saleProduct();
    const release = await hold(page, `**/api/products/${product.id}`);
    await arriveInBrowser(page, `/product/${product.id}`);
    await page.getByText('Loading product').waitFor({ state: 'attached' });
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(0);
    release();
    await page.getByRole('heading', { level: 1, name: product.name }).waitFor();
    expect(await page.getByText('Loading product').count()).toBe(0);
    await close();
  });

  it('shows a product on sale: badge, name, rating, benefits, price with Save N%, description and deliverables', async () => {
    const { page, errors, close } = await openPage(e2e.browser, e2e.store.url);
    const product = saleProduct();
    await page.goto(`/product/${product.id}`);
    await waitForTitle(page, `${product.name} | LicenseStore`);
    expect(product.description.startsWith(((await metaDescription(page)) ?? '').replace(/\.\.\.$/, ''))).toBe(
      true,
    );

    const main = page.getByRole('main');
    expect(await main.getByRole('img', { name: product.name }).getAttribute('src')).toBe(product.imageUrl);
    expect(await main.getByText(product.category, { exact: true }).first().isVisible()).toBe(true);
    expect(await main.getByRole('img', { name: 'Rated 4.8 out of 5' }).isVisible()).toBe(true);
    expect(await main.getByText('(1,200+ reviews)').isVisible()).toBe(true);
    const benefits = await main.getByRole('list', { name: 'Included with every purchase' }).textContent();
    for (const claim of [
      'Lifetime license',
      'one-time payment',
      '15-30 minutes',
      '100% genuine',
      '24/7 support with live chat',
      '30-day money-back guarantee',
    ]) {
      expect(benefits).toContain(claim);
    }
    expect(await main.getByText(`Save ${percentOff(product)}%`, { exact: true }).isVisible()).toBe(true);
    expect(
      await main
        .getByText(shownMoney(product.salePrice as string))
        .first()
        .isVisible(),
    ).toBe(true);
    expect(await main.locator('s', { hasText: shownMoney(product.regularPrice) }).isVisible()).toBe(true);
    expect(await main.getByText(product.description).isVisible()).toBe(true);
    expect(await main.getByRole('button', { name: 'Add to Cart - Buy Now' }).isEnabled()).toBe(true);

    const why = main.getByRole('region', { name: 'Why Choose LicenseStore?' });
    expect(await why.getByRole('heading', { level: 3 }).count()).toBe(4);
    const receive = main.getByRole('region', { name: "What You'll Receive" });
    const deliverables = (await receive.getByRole('listitem').allTextContents()).join(' | ');
    for (const item of [
      'license key',
      'Official download link',
      'installation instructions',
      'Lifetime support',
    ]) {
      expect(deliverables).toContain(item);
    }
    expect(errors).toEqual([]);
    await close();
  });

  it('shows the regular price alone, without a Save badge, when not on sale', async () => {
    const { page, close } = await openPage(e2e.browser, e2e.store.url);
    const product = regularProduct();
    await page.goto(`/product/${product.id}`);
    await page.getByRole('heading', { level: 1, name: product.name }).waitFor();
    const main = page.getByRole('main');
    expect(await main.getByText(shownMoney(product.regularPrice), { exact: true }).isVisible()).toBe(true);
    expect(await main.getByText(/^Save \d+%$/).count()).toBe(0);
    await close();
  });

  it('shows the breadcrumbs Home > Products > name, visibly and as BreadcrumbList data', async () => {
    const { page, close } = await openPage(e2e.browser, e2e.store.url);
    const product = saleProduct();
    await page.goto(`/product/${product.id}`);
    const trail = page.getByRole('navigation', { name: 'Breadcrumb' });
    await trail.waitFor();
    expect(await trail.getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/');
    expect(await trail.getByRole('link', { name: 'Products' }).getAttribute('href')).toBe('/products');
    expect(await trail.locator('[aria-current="page"]').textContent()).toBe(product.name);
    const breadcrumbs = await blockOfType<{ itemListElement: ListItemData[] }>(page, 'BreadcrumbList');
    expect(breadcrumbs.itemListElement.map((item) => [item.name, item.item])).toEqual([
      ['Home', `${e2e.store.url}/`],
      ['Products', `${e2e.store.url}/products`],
      [product.name, `${e2e.store.url}/product/${product.id}`],
    ]);
    await close();
  });

  it('emits Product data with the price paid, brand from the category and availability', async () => {
    const { page, close } = await openPage(e2e.browser, e2e.store.url);
    for (const product of [saleProduct(), regularProduct(), outOfStockProduct()]) {
      await page.goto(`/product/${product.id}`);
      await page.getByRole('heading', { level: 1, name: product.name }).waitFor();
      const data = await blockOfType<{ image: string; offers: { priceValidUntil: string } }>(page, 'Product');
      expect(data).toMatchObject({
        '@context': 'https://schema.org',
        name: product.name,
        description: product.description,
        sku: product.id,
        brand: { '@type': 'Brand', name: brand(product.category) },
        aggregateRating: { ratingValue: '4.8', bestRating: '5', reviewCount: 1200 },
        offers: {
          '@type': 'Offer',
          priceCurrency: 'USD',
          price: onSale(product) ? product.salePrice : product.regularPrice,
          availability: product.inStock ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
        },
      });
      expect(data.image).toBe(new URL(product.imageUrl, e2e.store.url).href);
      const validUntil = new Date(data.offers.priceValidUntil).getTime();
      expect(Math.abs(validUntil - Date.now() - 365 * 24 * 3600 * 1000)).toBeLessThan(2 * 24 * 3600 * 1000);
    }
    await close();
  });

  it('answers six questions, one open at a time, and closes the open one again; the same six as FAQPage data', async () => {
    const { page, close } = await openPage(e2e.browser, e2e.store.url);
    const product = saleProduct();
    await page.goto(`/product/${product.id}`);
    const faq = page.getByRole('region', { name: 'Frequently Asked Questions' });
    const questions = faq.getByRole('button');
    await questions.first().waitFor();
    expect(await questions.count()).toBe(6);
    const expanded = async () =>
      Promise.all(
        (await questions.all()).map(
          async (button) => (await button.getAttribute('aria-expanded')) === 'true',
        ),
      );
    expect(await expanded()).toEqual([false, false, false, false, false, false]);

    await questions.nth(0).click();
    expect(await expanded()).toEqual([true, false, false, false, false, false]);
    expect(await faq.getByRole('region').count()).toBe(1);
    await questions.nth(3).click();
    expect(await expanded()).toEqual([false, false, false, true, false, false]);
    expect(await faq.getByRole('region').textContent()).toContain(product.platform);
    await questions.nth(3).press('Enter');
    expect(await expanded()).toEqual([false, false, false, false, false, false]);

    const data = await blockOfType<{ mainEntity: QuestionData[] }>(page, 'FAQPage');
    expect(data.mainEntity.map((entry) => entry.name)).toEqual(await questions.allTextContents());
    for (const entry of data.mainEntity) {
      expect(entry).toMatchObject({ '@type': 'Question', acceptedAnswer: { '@type': 'Answer' } });
      expect(entry.acceptedAnswer.text.length).toBeGreaterThan(20);
    }
    await close();
  });

  it('disables the button of a product out of stock and labels it Out of Stock', async () => {
    const { page, close } = await openPage(e2e.browser, e2e.store.url);
    const product = outOfStockProduct();
    await page.goto(`/product/${product.id}`);
    await page.getByRole('heading', { level: 1, name: product.name }).waitFor();
    const button = page.getByRole('main').getByRole('button', { name: 'Out of Stock' });
    expect(await button.isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Add to Cart - Buy Now' }).count()).toBe(0);
    await close();
  });

  it.each([
    ['an unknown id', UNKNOWN_ID],
    ['a malformed id', 'no-such-product'],
    ['the featured list path', 'featured'],
  ])('answers %s with Product Not Found', async (_case, id) => {
    const { page, close } = await openPage(e2e.browser, e2e.store.url);
    await page.goto(`/product/${id}`);
    await page.getByRole('heading', { level: 1, name: 'Product Not Found' }).waitFor();
    expect(await page.getByText("The product you're looking for doesn't exist.").isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Back to Products' }).getAttribute('href')).toBe('/products');
    await waitForTitle(page, 'Product Not Found | LicenseStore');
    expect(await jsonLd(page)).toEqual([]);
    await close();
  });
});

describe('adding to the cart from a product page', () => {
  const badge = (page: Page) => page.getByTestId('cart-count');
  const panel = (page: Page) => page.getByRole('dialog', { name: 'Shopping Cart' });

  async function addToCart(page: Page, product: Product) {
    await page.goto(`/product/${product.id}`);
    await page.getByRole('heading', { level: 1, name: product.name }).waitFor();
    await page.getByRole('button', { name: 'Add to Cart - Buy Now' }).click();
  }

  it('toasts, counts, adds one more on a re-add, keeps quantities of 1 or more, removes, and survives a reload', async () => {
    const { page, errors, close } = await openPage(e2e.browser, e2e.store.url, { viewport: PHONE });
    const first = saleProduct();
    const second = regularProduct();

    await addToCart(page, first);
    await page.getByText('Added to cart', { exact: true }).first().waitFor();
    expect(await page.getByText(`${first.name} has been added to your cart.`).first().isVisible()).toBe(true);
    expect(await badge(page).textContent()).toBe('1');

    await page.getByRole('button', { name: 'Add to Cart - Buy Now' }).click();
    await page.getByRole('button', { name: 'Cart, 2 items' }).click();
    expect(await badge(page).textContent()).toBe('2');
    const line = panel(page).getByRole('listitem').filter({ hasText: first.name });
    await line.waitFor();
    expect(await line.textContent()).toContain(shownMoney(first.salePrice as string));
    expect(await line.textContent()).toContain('Quantity 2');
    expect(await panel(page).textContent()).toContain(
      `Subtotal${shownMoney((cents(first.salePrice as string) * 2) / 100)}`,
    );

    const decrease = line.getByRole('button', { name: `Decrease quantity of ${first.name}` });
    await decrease.click();
    await line.getByRole('button', { name: `Decrease quantity of ${first.name}`, disabled: true }).waitFor();
    expect(await line.textContent()).toContain('Quantity 1');
    await decrease.click({ force: true });
    expect(await line.textContent()).toContain('Quantity 1');
    await page.keyboard.press('Escape');
    await panel(page).waitFor({ state: 'detached' });

    await addToCart(page, second);
    await page.getByText(`${second.name} has been added to your cart.`).first().waitFor();
    await page.getByRole('button', { name: 'Cart, 2 items' }).waitFor();

    const stored = JSON.parse((await page.evaluate(() => localStorage.getItem('cart'))) ?? '[]');
    expect(stored).toEqual([
      {
        productId: first.id,
        productName: first.name,
        price: Number(first.salePrice),
        imageUrl: first.imageUrl,
        quantity: 1,
      },
      {
        productId: second.id,
        productName: second.name,
        price: Number(second.regularPrice),
        imageUrl: second.imageUrl,
        quantity: 1,
      },
    ]);

    await page.reload();
    await badge(page).waitFor();
    expect(await badge(page).textContent()).toBe('2');
    await page.getByRole('button', { name: 'Cart, 2 items' }).click();
    await panel(page)
      .getByRole('button', { name: `Remove ${first.name}` })
      .click();
    // The open panel hides the rest of the page from assistive technology: the badge is found by its test id.
    await badge(page).filter({ hasText: /^1$/ }).waitFor();
    expect(await panel(page).getByRole('listitem').count()).toBe(1);
    expect(await panel(page).textContent()).toContain(`Subtotal${shownMoney(second.regularPrice)}`);
    expect(await badge(page).textContent()).toBe('1');
    expect(errors).toEqual([]);
    await close();
  });

  it('lines up every remove button in one column, whatever the width of the line totals', async () => {
    const { page, close } = await openPage(e2e.browser, e2e.store.url, { viewport: PHONE });
    const byPrice = products.filter((product) => product.inStock).sort((a, b) => priceOf(a) - priceOf(b));
    await withCart(page, [
      { product: byPrice[0] as Product, quantity: 1 },
      { product: byPrice.at(-1) as Product, quantity: 10 },
    ]);
    await page.goto('/products');
    await page.getByRole('button', { name: 'Cart, 11 items' }).click();
    const removes = panel(page).getByRole('button', { name: /^Remove / });
    await removes.first().waitFor();
    const rightEdges = await removes.evaluateAll((buttons) =>
      buttons.map((button) => button.getBoundingClientRect().right),
    );
    expect(rightEdges).toHaveLength(2);
    expect(rightEdges[0]).toBe(rightEdges[1]);
    // Ten of the dearest product: thousands separated, as every amount is shown.
    expect(await panel(page).textContent()).toMatch(/Subtotal\$\d{1,3}(,\d{3})+\.\d{2}/);
    await close();
  });
});

describe('accessibility', () => {
  const pages: [string, () => string, string][] = [
    ['home', () => '/', 'What Our Customers Say'],
    ['products', () => '/products', 'All Products'],
    ['a product on sale', () => `/product/${saleProduct().id}`, 'Frequently Asked Questions'],
    ['a product out of stock', () => `/product/${outOfStockProduct().id}`, 'Frequently Asked Questions'],
    ['an unknown product', () => `/product/${UNKNOWN_ID}`, 'Product Not Found'],
  ];

  for (const colorScheme of ['light', 'dark'] as const) {
    it.each(pages)(`has no serious violations on %s, ${colorScheme}`, async (_name, path, heading) => {
      const { page, close } = await openPage(e2e.browser, e2e.store.url, { colorScheme });
      await page.goto(path());
      await page.getByRole('heading', { name: heading }).waitFor();
      // The loaded page is scanned, not its placeholders.
      await page
        .locator('[role="status"]', { hasText: /^Loading/ })
        .first()
        .waitFor({ state: 'detached' });
      expect(await seriousA11yViolations(page)).toEqual([]);
      await close();
    });
  }
});
