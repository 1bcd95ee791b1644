import { orderNumber, toCents } from '@licensestore/domain';
import { displayCents } from '@licensestore/domain/money/display';
import type { RenderedEmail } from './delivery-email.js';
import { escapeHtml } from './html.js';
import { type OrderEmailHeading, orderPageLink, receiptLink } from './links.js';
import { orderEmailHtml } from './order-email-html.js';
import { signOffText } from './store-identity.js';

/** A refunded unit: its product, and its key masked (null: the unit had no key yet). */
export interface RefundedUnit {
  productName: string;
  maskedKey: string | null;
}

export interface RefundEmailInput extends OrderEmailHeading {
  /** This refund's amount, a decimal string. */
  amount: string;
  units: readonly RefundedUnit[];
  /** What the order cost, and what the customer has paid once every refund so far is taken off. */
  total: string;
  netPaid: string;
}

const money = (amount: string) => displayCents(toCents(amount));

const unitLine = (unit: RefundedUnit) =>
  unit.maskedKey === null ? `${unit.productName} (no key had been delivered yet)` : unit.productName;

/** What the refund did to the customer's keys, in one sentence. */
const keysSentence = (units: readonly RefundedUnit[]) =>
  units.length === 0
    ? 'This refund is of money only: your license keys are not affected and keep working.'
    : units.length === 1
      ? 'This license key no longer works:'
      : 'These license keys no longer work:';

/** The email telling a customer that money of their order went back to them. */
export function renderRefundEmail(input: RefundEmailInput): RenderedEmail {
  const number = orderNumber(input.orderId);
  const amount = money(input.amount);
  return {
    subject: `Refund of ${amount} for order ${number}`,
    text: renderText(input, number, amount),
    html: renderHtml(input, number, amount),
  };
}

function renderText(input: RefundEmailInput, number: string, amount: string): string {
  return [
    `Hello ${input.customerName},`,
    '',
    `We refunded ${amount} of order ${number} to the account you paid with. Your bank or PayPal may take a few days to show it.`,
    '',
    keysSentence(input.units),
    ...input.units.map((unit) => `  ${unitLine(unit)}${unit.maskedKey ? `: ${unit.maskedKey}` : ''}`),
    '',
    `Order total: ${money(input.total)}`,
    `Net paid after refunds: ${money(input.netPaid)}`,
    '',
    `Your updated receipt (PDF): ${receiptLink(input)}`,
    `Your order: ${orderPageLink(input)}`,
    '',
    ...signOffText(input.store, number),
  ].join('\n');
}

function renderHtml(input: RefundEmailInput, number: string, amount: string): string {
  const units = input.units
    .map(
      (unit) =>
        `<li style="margin:0 0 4px">${escapeHtml(unitLine(unit))}${
          unit.maskedKey
            ? ` <span style="font-family:monospace;white-space:nowrap;color:#6b7280;text-decoration:line-through">${escapeHtml(unit.maskedKey)}</span>`
            : ''
        }</li>`,
    )
    .join('');
  return orderEmailHtml(
    { title: `Refund for order ${number}`, store: input.store, number, links: input },
    `<h1 style="font-size:22px">Refund of ${escapeHtml(amount)}</h1>
      <p>Hello ${escapeHtml(input.customerName)},</p>
      <p>We refunded <strong>${escapeHtml(amount)}</strong> of order <strong>${escapeHtml(number)}</strong> to the account you paid with. Your bank or PayPal may take a few days to show it.</p>
      <p>${escapeHtml(keysSentence(input.units))}</p>${units ? `\n      <ul>${units}</ul>` : ''}
      <table role="presentation" style="width:100%;border-top:1px solid #e5e7eb;padding-top:8px">
        <tr><td>Order total</td><td style="text-align:right">${escapeHtml(money(input.total))}</td></tr>
        <tr><td style="font-weight:bold">Net paid after refunds</td><td style="text-align:right;font-weight:bold">${escapeHtml(money(input.netPaid))}</td></tr>
      </table>
      <p><a href="${escapeHtml(receiptLink(input))}">Download your updated receipt (PDF)</a></p>`,
  );
}
