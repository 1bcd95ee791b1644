import { orderNumber, toCents } from '@licensestore/domain';
import { displayCents } from '@licensestore/domain/money/display';
import type { Download } from './downloads.js';
import { escapeHtml } from './html.js';
import { type OrderEmailHeading, orderPageLink, receiptLink } from './links.js';
import { signOffText, storeHeaderHtml, supportHtml } from './store-identity.js';

export interface DeliveredLine {
  productName: string;
  quantity: number;
  /** The price of one unit, a decimal string ("19.99"). */
  unitPrice: string;
  /** In clear, one per unit. */
  keys: readonly string[];
  download: Download;
}

export interface DeliveryEmailInput extends OrderEmailHeading {
  lines: readonly DeliveredLine[];
}

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

const INSTALLATION_STEPS = [
  'Download the official installer from the link given with each product above.',
  'Run the installer and follow the on-screen instructions.',
  'When asked, enter your license key to activate the software (one key per installation).',
  'Keep this email: your keys also stay on your order page.',
];

const downloadLabel = ({ official }: Download) =>
  official ? 'Download the official installer' : 'Download and installation details';

const notesLines = (notes: string) => notes.split('\n');

const lineCents = (line: DeliveredLine) => toCents(line.unitPrice) * line.quantity;

/** "2 x $19.99, $39.98 in all": a line's price as the customer checks it (ASCII, so the message stays 7-bit and plain). */
const linePrice = (line: DeliveredLine) =>
  `${line.quantity} x ${displayCents(toCents(line.unitPrice))}, ${displayCents(lineCents(line))} in all`;

/** The total of the lines this email delivers (a refunded unit is no longer one of them). */
const totalOf = (lines: readonly DeliveredLine[]) =>
  displayCents(lines.reduce((sum, line) => sum + lineCents(line), 0));

/** The email that delivers an order's license keys, in plain text and HTML. */
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
    `  Price: ${linePrice(line)}`,
    `  License ${line.keys.length === 1 ? 'key' : 'keys'}:`,
    ...line.keys.map((key) => `    ${key}`),
    `  ${downloadLabel(line.download)}: ${line.download.url}`,
    ...(line.download.notes
      ? ['  Installation notes:', ...notesLines(line.download.notes).map((text) => `    ${text}`)]
      : []),
    '',
  ]);
  return [
    `Hello ${input.customerName},`,
    '',
    `Thank you for your purchase. Order ${number} is complete: here are your license keys.`,
    '',
    ...products,
    `Total: ${totalOf(input.lines)}`,
    '',
    'How to install',
    ...INSTALLATION_STEPS.map((step, index) => `  ${index + 1}. ${step}`),
    '',
    `Your order: ${orderPageLink(input)}`,
    `Your receipt (PDF): ${receiptLink(input)}`,
    '',
    ...signOffText(input.store, number),
  ].join('\n');
}

function renderHtml(input: DeliveryEmailInput, number: string): string {
  const products = input.lines
    .map(
      (line) => `
      <tr><td style="padding:16px 0;border-bottom:1px solid #e5e7eb">
        <p style="margin:0 0 8px;font-weight:bold">${escapeHtml(line.productName)}
          <span style="font-weight:normal;color:#6b7280">&nbsp;Quantity: ${line.quantity}</span></p>
        <p style="margin:0 0 8px;color:#374151">Price: ${escapeHtml(linePrice(line))}</p>
        <p style="margin:0 0 4px">License ${line.keys.length === 1 ? 'key' : 'keys'}:</p>
        ${line.keys
          .map(
            (key) =>
              `<p style="margin:0 0 4px;font-family:monospace;font-size:16px;background:#f3f4f6;padding:6px 8px;word-break:keep-all;overflow-wrap:normal">${escapeHtml(key)}</p>`,
          )
          .join('\n        ')}
        <p style="margin:8px 0 0"><a href="${escapeHtml(line.download.url)}">${escapeHtml(downloadLabel(line.download))}</a></p>${
          line.download.notes
            ? `
        <p style="margin:8px 0 0;color:#374151"><strong>Installation notes:</strong><br>${notesLines(line.download.notes).map(escapeHtml).join('<br>')}</p>`
            : ''
        }
      </td></tr>`,
    )
    .join('');
  const steps = INSTALLATION_STEPS.map((step) => `<li>${escapeHtml(step)}</li>`).join('');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Your license keys for order ${escapeHtml(number)}</title></head>
<body style="margin:0;padding:24px;font-family:Arial,Helvetica,sans-serif;color:#111827">
  <table role="presentation" style="max-width:600px;margin:0 auto;width:100%">
${storeHeaderHtml(input.store)}
    <tr><td>
      <h1 style="font-size:22px">Your license keys</h1>
      <p>Hello ${escapeHtml(input.customerName)},</p>
      <p>Thank you for your purchase. Order <strong>${escapeHtml(number)}</strong> is complete: here are your license keys.</p>
    </td></tr>${products}
    <tr><td style="padding:12px 0;text-align:right;font-weight:bold">Total: ${escapeHtml(totalOf(input.lines))}</td></tr>
    <tr><td>
      <h2 style="font-size:18px">How to install</h2>
      <ol>${steps}</ol>
      <p><a href="${escapeHtml(orderPageLink(input))}">View your order ${escapeHtml(number)}</a></p>
      <p><a href="${escapeHtml(receiptLink(input))}">Download your receipt (PDF)</a></p>
      ${supportHtml(input.store, number)}
    </td></tr>
  </table>
</body>
</html>
`;
}
