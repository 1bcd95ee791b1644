import { describe, expect, it } from 'vitest';
import { renderDeliveryEmail } from './delivery-email.js';
import { downloadFor } from './downloads.js';
import { renderLowStockEmail } from './low-stock-email.js';
import type { StoreIdentity } from './store-identity.js';

const orderId = '3f2a9c1e-7b4d-4e8a-9c2f-1a2b3c4d5e6f';
const publicUrl = 'https://store.example';
const office = {
  productName: 'Microsoft Office 2021 Professional Plus',
  quantity: 2,
  unitPrice: '219.99',
  keys: ['AAAAA-BBBBB-CCCCC-DDDDD-EEEEE', 'FFFFF-GGGGG-HHHHH-IIIII-JJJJJ'],
  download: downloadFor(
    {
      downloadUrl: 'https://setup.office.com/',
      installationNotes: 'Sign in at setup.office.com.\nChoose <Install Office> & run it.',
    },
    'b1c2d3e4-0000-4000-8000-000000000001',
    publicUrl,
  ),
};
const game = {
  productName: 'Tom & Jerry <Deluxe>',
  quantity: 1,
  unitPrice: '5',
  keys: ['<b>KEY</b>'],
  download: downloadFor(
    { downloadUrl: null, installationNotes: null },
    'b1c2d3e4-0000-4000-8000-000000000002',
    publicUrl,
  ),
};
const accessToken = 'k3Y_t0ken-of-43-characters-base64url-AbCdEfG';
const receiptToken = 'r3c_t0ken-of-43-characters-base64url-AbCdEfG';
const store: StoreIdentity = { name: 'Keys & Co', publicUrl, supportEmail: 'help@store.example' };
const render = (customerName = 'Ada Lovelace', lines = [office, game], from = store) =>
  renderDeliveryEmail({ orderId, customerName, lines, store: from, publicUrl, accessToken, receiptToken });

describe('Delivery email', () => {
  it("opens with the store's name and logo, and signs with its name", () => {
    const { text, html } = render();
    expect(html).toContain(`<a href="${publicUrl}" style=`);
    expect(html).toMatch(/background:#2563eb;[^>]*>K<\/span>Keys &amp; Co<\/a>/);
    expect(text.trimEnd().endsWith('Keys & Co')).toBe(true);
  });

  it('gives each line its price and the order its total', () => {
    const { text, html } = render();
    expect(text).toContain('  Price: 2 x $219.99, $439.98 in all');
    expect(text).toContain('  Price: 1 x $5.00, $5.00 in all');
    expect(text).toContain('Total: $444.98');
    expect(html).toContain('Price: 2 x $219.99, $439.98 in all');
    expect(html).toContain('Total: $444.98</td>');
  });

  it("sends questions to the configured support address, or else to the store's site, never a bare origin as a 24/7 team", () => {
    const { text, html } = render();
    expect(text).toContain(
      'Questions about this order? Write to help@store.example and quote order #3F2A9C1E.',
    );
    expect(html).toContain('<a href="mailto:help@store.example">help@store.example</a>');
    expect(text).not.toContain('24/7');
    const withoutAddress = render(undefined, undefined, { ...store, supportEmail: null });
    expect(withoutAddress.text).toContain(
      'Questions about this order? Contact Keys & Co at https://store.example and quote order #3F2A9C1E.',
    );
  });

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

  it('links each product to its official installer with its installation notes, or to its page in the store when it has no download URL', () => {
    const { text, html } = render();
    expect(text).toContain(
      [
        '  Download the official installer: https://setup.office.com/',
        '  Installation notes:',
        '    Sign in at setup.office.com.',
        '    Choose <Install Office> & run it.',
      ].join('\n'),
    );
    expect(html).toContain('<a href="https://setup.office.com/">Download the official installer</a>');
    expect(html).toContain(
      '<strong>Installation notes:</strong><br>Sign in at setup.office.com.<br>Choose &lt;Install Office&gt; &amp; run it.</p>',
    );
    const productPage = 'https://store.example/product/b1c2d3e4-0000-4000-8000-000000000002';
    expect(text).toContain(`Download and installation details: ${productPage}`);
    expect(html).toContain(`<a href="${productPage}">Download and installation details</a>`);
    expect(text.match(/Installation notes:/g)).toHaveLength(1);
    expect(text).not.toContain(`${publicUrl}/product/b1c2d3e4-0000-4000-8000-000000000001`);
  });

  it('links to the order confirmation page, its keys opened by the token in the fragment, and gives installation steps', () => {
    const { text, html } = render();
    const orderPage = `https://store.example/order-confirmation/${orderId}#access=${accessToken}`;
    expect(text).toContain(`Your order: ${orderPage}`);
    expect(html).toContain(`<a href="${orderPage}">View your order #3F2A9C1E</a>`);
    expect(text).toContain('How to install');
    expect(text).toMatch(/ {2}1\. Download the official installer/);
    expect(html).toContain('<ol><li>Download the official installer');
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
  const page = `${publicUrl}/product/${productId}`;

  it("uses the product's official https download URL and keeps its notes", () => {
    expect(
      downloadFor(
        { downloadUrl: 'https://www.norton.com/setup', installationNotes: 'Sign in.' },
        productId,
        publicUrl,
      ),
    ).toEqual({ url: 'https://www.norton.com/setup', official: true, notes: 'Sign in.' });
  });

  it.each([
    ['no download URL', { downloadUrl: null, installationNotes: 'Run setup.exe.' }, 'Run setup.exe.'],
    ['an http URL', { downloadUrl: 'http://www.norton.com/setup', installationNotes: null }, null],
    ['a javascript: URL', { downloadUrl: 'javascript:alert(1)', installationNotes: null }, null],
    ['a product no longer in the catalogue', null, null],
  ])("falls back to the product's page in the store for %s", (_what, product, notes) => {
    expect(downloadFor(product, productId, publicUrl)).toEqual({ url: page, official: false, notes });
  });
});

describe('Low-stock alert', () => {
  it('says how many keys are left, keeps the subject on one line and escapes the product name', () => {
    const email = renderLowStockEmail({
      productName: 'Norton <360>\nDeluxe',
      available: 1,
      threshold: 5,
      licenseKeysUrl: `${publicUrl}/admin/license-keys`,
    });
    expect(email.subject).toBe('Low stock: Norton <360> Deluxe has 1 license key left');
    expect(email.html).toContain('Norton &lt;360&gt;');
    expect(email.html).toContain(`<a href="${publicUrl}/admin/license-keys">`);
    expect(email.text).toContain('(threshold 5)');
  });
});
