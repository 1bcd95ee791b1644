import { describe, expect, it } from 'vitest';
import { renderDeliveryEmail } from './delivery-email.js';
import { downloadFor } from './downloads.js';
import { renderLowStockEmail } from './low-stock-email.js';

const orderId = '3f2a9c1e-7b4d-4e8a-9c2f-1a2b3c4d5e6f';
const publicUrl = 'https://store.example';
const office = {
  productName: 'Microsoft Office 2021 Professional Plus',
  quantity: 2,
  keys: ['AAAAA-BBBBB-CCCCC-DDDDD-EEEEE', 'FFFFF-GGGGG-HHHHH-IIIII-JJJJJ'],
  download: downloadFor('Office Suites', 'b1c2d3e4-0000-4000-8000-000000000001', publicUrl),
};
const game = {
  productName: 'Tom & Jerry <Deluxe>',
  quantity: 1,
  keys: ['<b>KEY</b>'],
  download: downloadFor('Games', 'b1c2d3e4-0000-4000-8000-000000000002', publicUrl),
};
const accessToken = 'k3Y_t0ken-of-43-characters-base64url-AbCdEfG';
const receiptToken = 'r3c_t0ken-of-43-characters-base64url-AbCdEfG';
const render = (customerName = 'Ada Lovelace', lines = [office, game]) =>
  renderDeliveryEmail({ orderId, customerName, lines, publicUrl, accessToken, receiptToken });

describe('Delivery e-mail', () => {
  it("names the order by '#' and the first 8 characters of its id in upper case", () => {
    const email = render();
    expect(email.subject).toBe('Your license keys for order #3F2A9C1E');
    expect(email.text).toContain('Order #3F2A9C1E is complete');
    expect(email.html).toContain('<strong>#3F2A9C1E</strong>');
  });

  it('lists each product with its quantity and every one of its keys, in text and HTML', () => {
    const { text, html } = render();
    expect(text).toContain('Microsoft Office 2021 Professional Plus (Quantity: 2)');
    for (const key of office.keys) {
      expect(text).toContain(`    ${key}`);
      expect(html).toContain(`>${key}</p>`);
    }
    expect(html).toContain('Quantity: 2');
    expect(text).toContain('License keys:');
    expect(text).toContain('License key:');
  });

  it("links to the vendor's official download page, or to the product page in the store", () => {
    const { text, html } = render();
    expect(text).toContain(
      "Download from Microsoft's official page: https://www.microsoft.com/software-download",
    );
    expect(html).toContain('<a href="https://www.microsoft.com/software-download">');
    expect(text).toContain(
      'Download and installation details: https://store.example/product/b1c2d3e4-0000-4000-8000-000000000002',
    );
  });

  it('links to the order confirmation page, its keys opened by the token in the fragment, and gives installation steps and support contact', () => {
    const { text, html } = render();
    const orderPage = `https://store.example/order-confirmation/${orderId}#access=${accessToken}`;
    expect(text).toContain(`Your order: ${orderPage}`);
    expect(html).toContain(`<a href="${orderPage}">View your order #3F2A9C1E</a>`);
    expect(text).toContain('How to install');
    expect(text).toMatch(/ {2}1\. Download the software/);
    expect(html).toContain('<ol><li>Download the software');
    expect(text).toContain('Need help? Our support team is available 24/7 at https://store.example');
  });

  it('links to the receipt PDF with its own token, which opens only the receipt', () => {
    const { text, html } = render();
    const receipt = `https://store.example/api/orders/${orderId}/receipt.pdf?token=${receiptToken}`;
    expect(text).toContain(`Your receipt (PDF): ${receipt}`);
    expect(html).toContain(`<a href="${receipt}">Download your receipt (PDF)</a>`);
    expect(text).not.toContain(`receipt.pdf?token=${accessToken}`);
  });

  it('escapes every customer- and admin-provided text in the HTML, and leaves the text version as typed', () => {
    const { text, html } = render('<script>alert("x")</script> & Co');
    expect(html).not.toContain('<script>');
    expect(html).toContain('Hello &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co,');
    expect(html).toContain('Tom &amp; Jerry &lt;Deluxe&gt;');
    expect(html).toContain('&lt;b&gt;KEY&lt;/b&gt;');
    expect(html).not.toContain('<b>KEY</b>');
    expect(text).toContain('Hello <script>alert("x")</script> & Co,');
    expect(text).toContain('<b>KEY</b>');
  });
});

describe('Download links', () => {
  const productId = '0a0b0c0d-0000-4000-8000-000000000000';
  it.each([
    ['Office Suites', 'Microsoft', 'https://www.microsoft.com/software-download'],
    ['windows 11', 'Microsoft', 'https://www.microsoft.com/software-download'],
    ['Norton Antivirus', 'Norton', 'https://www.norton.com/setup'],
    ['Adobe Creative', 'Adobe', 'https://www.adobe.com/downloads.html'],
  ])('derives the vendor from the category %s', (category, vendor, url) => {
    expect(downloadFor(category, productId, publicUrl)).toEqual({ vendor, url });
  });

  it("falls back to the product's page for other categories and for products no longer in the catalogue", () => {
    const page = { vendor: null, url: `${publicUrl}/product/${productId}` };
    expect(downloadFor('Operating Systems', productId, publicUrl)).toEqual(page);
    expect(downloadFor(null, productId, publicUrl)).toEqual(page);
  });
});

describe('Low-stock alert', () => {
  it('says how many keys are left, keeps the subject on one line and escapes the product name', () => {
    const email = renderLowStockEmail({
      productName: 'Norton <360>\nDeluxe',
      available: 1,
      threshold: 5,
      licenceKeysUrl: `${publicUrl}/admin/license-keys`,
    });
    expect(email.subject).toBe('Low stock: Norton <360> Deluxe has 1 license key left');
    expect(email.html).toContain('Norton &lt;360&gt;');
    expect(email.html).toContain(`<a href="${publicUrl}/admin/license-keys">`);
    expect(email.text).toContain('(threshold 5)');
  });
});
