import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWebClient } from '../../../web/build/build-web-client.js';
import { signIn } from './support/api.js';
import { type ApiWithReadModel, startApiWithReadModel } from './support/api-with-read-model.js';

const ADMIN = { username: 'admin', password: 'correct horse battery staple' };
/** The site's public address: structured data names it, not the address the test reaches the api at. */
const PUBLIC_URL = 'https://shop.example';
/** Text a product's name may hold that must never become markup, in the page or in its structured data. */
const HOSTILE_NAME = 'Suite </script><b>bold</b>';

/** The JSON-LD blocks of a page, parsed: what a crawler reads without running any script. */
const structuredData = (html: string): Array<Record<string, unknown>> =>
  [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)].map(
    (match) => JSON.parse(match[1] as string) as Record<string, unknown>,
  );

/** The public storefront pages arrive as HTML with their content, drawn from the catalogue before any script runs. */
describe('Pages drawn on the server', () => {
  let store: ApiWithReadModel;
  let webDist: string;
  let url: string;
  let officeId: string;
  let hostileId: string;

  const page = async (path: string) => {
    const response = await fetch(`${url}${path}`, { headers: { accept: 'text/html' } });
    return { status: response.status, headers: response.headers, html: await response.text() };
  };

  beforeAll(async () => {
    webDist = await mkdtemp(join(tmpdir(), 'web-dist-'));
    await buildWebClient(webDist);
    store = await startApiWithReadModel({
      env: { ADMIN_PASSWORD: ADMIN.password, WEB_DIST: webDist, PUBLIC_URL },
    });
    url = store.api.url;
    officeId = await store.productWithKeys(1, { name: 'Rendered Office 2024', regularPrice: '149.00' });
    hostileId = await store.productWithKeys(1, { name: HOSTILE_NAME, salePrice: '19.99' });
  }, 120_000);
  afterAll(async () => {
    await store?.stop();
    if (webDist) await rm(webDist, { recursive: true, force: true });
  });

  it('draws /products with every product, its title and breadcrumb data, and the answers it was drawn from', async () => {
    const { status, headers, html } = await page('/products');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(headers.get('cache-control')).toBe('no-cache');
    expect(html).toContain('<title>All Products | LicenseStore</title>');
    expect(html).toContain('Rendered Office 2024');
    expect(html).toContain(`href="/product/${officeId}"`);
    expect(html).toContain('id="server-state"');
    expect(structuredData(html).map((data) => data['@type'])).toEqual(['BreadcrumbList']);
  });

  it('escapes text from a product in the markup, the structured data and the state alike', async () => {
    const { html } = await page('/products');
    expect(html).not.toContain('<b>bold</b>');
    expect(html).toContain('Suite &lt;/script&gt;&lt;b&gt;bold&lt;/b&gt;');
    const { html: productPage } = await page(`/product/${hostileId}`);
    expect(productPage).not.toContain('<b>bold</b>');
    const product = structuredData(productPage).find((data) => data['@type'] === 'Product');
    expect(product?.name).toBe(HOSTILE_NAME);
  });

  it('draws a product page with its title, description and Product data at its absolute URL', async () => {
    const { status, html } = await page(`/product/${officeId}`);
    expect(status).toBe(200);
    expect(html).toContain('<title>Rendered Office 2024 | LicenseStore</title>');
    expect(html).toContain('<meta name="description" content="A license." />');
    expect(html).toContain('<meta property="og:title" content="Rendered Office 2024 | LicenseStore" />');
    const data = structuredData(html);
    expect(data.map((each) => each['@type'])).toEqual(['BreadcrumbList', 'Product', 'FAQPage']);
    const product = data[1] as { offers: { price: string; url: string } };
    expect(product.offers.price).toBe('149.00');
    expect(product.offers.url).toBe(`${PUBLIC_URL}/product/${officeId}`);
  });

  it('draws the home page with its Organization data, and a category chosen in the URL', async () => {
    const home = await page('/');
    expect(home.html).toContain('<title>Genuine Software Licenses | LicenseStore</title>');
    expect(structuredData(home.html).map((data) => data['@type'])).toEqual(['Organization']);
    const windows = await page('/products?category=Windows');
    expect(windows.html).toContain('<title>Windows | LicenseStore</title>');
    expect(windows.html).toContain('Rendered Office 2024');
    const none = await page('/products?category=Nothing');
    expect(none.html).toContain('No products found in this category');
    expect(none.html).not.toContain(`href="/product/${officeId}"`);
  });

  it('leaves the cart, checkout, account and an unknown product to the browser: the empty shell', async () => {
    for (const path of ['/checkout', '/account', '/admin', `/product/${crypto.randomUUID()}`]) {
      const { status, html } = await page(path);
      expect(status).toBe(200);
      expect(html).toContain('<div id="root"></div>');
      expect(html).not.toContain('server-state');
    }
  });

  it('draws the page anew once the catalogue changes, and revalidates an unchanged one to 304', async () => {
    const first = await page(`/product/${officeId}`);
    const etag = first.headers.get('etag') ?? '';
    const again = await fetch(`${url}/product/${officeId}`, {
      headers: { accept: 'text/html', 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
    const admin = await signIn(url, ADMIN.username, ADMIN.password);
    const renamed = await fetch(`${url}/api/products/${officeId}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', cookie: admin },
      body: JSON.stringify({ name: 'Rendered Office 2025' }),
    });
    expect(renamed.status).toBe(200);
    const after = await page(`/product/${officeId}`);
    expect(after.html).toContain('<title>Rendered Office 2025 | LicenseStore</title>');
    expect(after.headers.get('etag')).not.toBe(etag);
  });
});
