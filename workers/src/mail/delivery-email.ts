import { orderNumber } from '@licensestore/shared';
import type { Download } from './downloads.js';
import { escapeHtml } from './html.js';

export interface DeliveredLine {
  productName: string;
  quantity: number;
  /** In clear, one per unit. */
  keys: readonly string[];
  download: Download;
}

export interface DeliveryEmailInput {
  orderId: string;
  customerName: string;
  lines: readonly DeliveredLine[];
  /** The store's origin, without a trailing slash. */
  publicUrl: string;
  /** Opens the order's keys on its page for whoever holds this e-mail. */
  accessToken: string;
  /** Opens the order's receipt PDF (which holds no key) and nothing else. */
  receiptToken: string;
}

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

const INSTALLATION_STEPS = [
  'Download the software from the link given with each product above.',
  'Run the installer and follow the on-screen instructions.',
  'When asked, enter your license key to activate the software (one key per installation).',
  'Keep this e-mail: your keys also stay on your order page.',
];

const downloadLabel = ({ vendor }: Download) =>
  vendor ? `Download from ${vendor}'s official page` : 'Download and installation details';

/**
 * The order's page, its keys opened by the token. The token rides in the fragment: browsers never send a fragment
 * to a server, so it stays out of access logs and Referer headers; the page hands it to the api itself.
 */
const orderPage = ({ publicUrl, orderId, accessToken }: DeliveryEmailInput) =>
  `${publicUrl}/order-confirmation/${encodeURIComponent(orderId)}#access=${encodeURIComponent(accessToken)}`;

/**
 * The order's receipt PDF. Its token rides in the query string, since a download link has no page to hand a fragment
 * over; it opens that one PDF, which tells no more than this e-mail does and no licence key.
 */
const receiptLink = ({ publicUrl, orderId, receiptToken }: DeliveryEmailInput) =>
  `${publicUrl}/api/orders/${encodeURIComponent(orderId)}/receipt.pdf?token=${encodeURIComponent(receiptToken)}`;

/** The e-mail that delivers an order's licence keys, in plain text and HTML. */
export function renderDeliveryEmail(input: DeliveryEmailInput): RenderedEmail {
  const number = orderNumber(input.orderId);
  return {
    subject: `Your license keys for order ${number}`,
    text: renderText(input, number),
    html: renderHtml(input, number),
  };
}

function renderText(input: DeliveryEmailInput, number: string): string {
  const products = input.lines.flatMap((line) => [
    `${line.productName} (Quantity: ${line.quantity})`,
    `  License ${line.keys.length === 1 ? 'key' : 'keys'}:`,
    ...line.keys.map((key) => `    ${key}`),
    `  ${downloadLabel(line.download)}: ${line.download.url}`,
    '',
  ]);
  return [
    `Hello ${input.customerName},`,
    '',
    `Thank you for your purchase. Order ${number} is complete: here are your license keys.`,
    '',
    ...products,
    'How to install',
    ...INSTALLATION_STEPS.map((step, index) => `  ${index + 1}. ${step}`),
    '',
    `Your order: ${orderPage(input)}`,
    `Your receipt (PDF): ${receiptLink(input)}`,
    '',
    `Need help? Our support team is available 24/7 at ${input.publicUrl} - please quote order ${number}.`,
    '',
  ].join('\n');
}

function renderHtml(input: DeliveryEmailInput, number: string): string {
  const products = input.lines
    .map(
      (line) => `
      <tr><td style="padding:16px 0;border-bottom:1px solid #e5e7eb">
        <p style="margin:0 0 8px;font-weight:bold">${escapeHtml(line.productName)}
          <span style="font-weight:normal;color:#6b7280">&nbsp;Quantity: ${line.quantity}</span></p>
        <p style="margin:0 0 4px">License ${line.keys.length === 1 ? 'key' : 'keys'}:</p>
        ${line.keys
          .map(
            (key) =>
              `<p style="margin:0 0 4px;font-family:monospace;font-size:16px;background:#f3f4f6;padding:6px 8px">${escapeHtml(key)}</p>`,
          )
          .join('\n        ')}
        <p style="margin:8px 0 0"><a href="${escapeHtml(line.download.url)}">${escapeHtml(downloadLabel(line.download))}</a></p>
      </td></tr>`,
    )
    .join('');
  const steps = INSTALLATION_STEPS.map((step) => `<li>${escapeHtml(step)}</li>`).join('');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Your license keys for order ${escapeHtml(number)}</title></head>
<body style="margin:0;padding:24px;font-family:Arial,Helvetica,sans-serif;color:#111827">
  <table role="presentation" style="max-width:600px;margin:0 auto;width:100%">
    <tr><td>
      <h1 style="font-size:22px">Your license keys</h1>
      <p>Hello ${escapeHtml(input.customerName)},</p>
      <p>Thank you for your purchase. Order <strong>${escapeHtml(number)}</strong> is complete: here are your license keys.</p>
    </td></tr>${products}
    <tr><td>
      <h2 style="font-size:18px">How to install</h2>
      <ol>${steps}</ol>
      <p><a href="${escapeHtml(orderPage(input))}">View your order ${escapeHtml(number)}</a></p>
      <p><a href="${escapeHtml(receiptLink(input))}">Download your receipt (PDF)</a></p>
      <p style="color:#6b7280">Need help? Our support team is available 24/7 at
        <a href="${escapeHtml(input.publicUrl)}">${escapeHtml(input.publicUrl)}</a> - please quote order ${escapeHtml(number)}.</p>
    </td></tr>
  </table>
</body>
</html>
`;
}
