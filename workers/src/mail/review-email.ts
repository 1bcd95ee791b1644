import { orderNumber, toCents } from '@licensestore/domain';
import { displayCents } from '@licensestore/domain/money/display';
import type { RenderedEmail } from './delivery-email.js';
import { escapeHtml } from './html.js';
import { type OrderEmailHeading, orderPageLink } from './links.js';
import { orderEmailHtml } from './order-email-html.js';
import { signOffText } from './store-identity.js';

/** What the buyer is told of a review: the order is being checked, or it was not approved. */
export type ReviewEmailKind = 'held' | 'rejected';

export interface ReviewEmailInput extends OrderEmailHeading {
  kind: ReviewEmailKind;
  total: string;
  /** Held: how long a check takes at most, in minutes (the rules' overdue time). */
  checkMinutes: number;
  /** Rejected: the reason the admin gave. */
  reason: string | null;
}

/** "2 hours", "45 minutes", "1 day": the longest whole unit the wait is a multiple of. */
export function waitText(minutes: number): string {
  const unit = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;
  if (minutes % 1440 === 0) return unit(minutes / 1440, 'day');
  if (minutes % 60 === 0) return unit(minutes / 60, 'hour');
  return unit(minutes, 'minute');
}

/** The sentences of the message, the same in its text and its HTML. */
function paragraphs(input: ReviewEmailInput, number: string): { subject: string; lines: string[] } {
  if (input.kind === 'held') {
    return {
      subject: `Order ${number} is being checked`,
      lines: [
        `Thank you for your order ${number}. Your payment was received, and we are checking the order before we send its license keys.`,
        `This usually takes no longer than ${waitText(input.checkMinutes)}. Your license keys are set aside for you and are emailed to this address as soon as the check is done.`,
      ],
    };
  }
  return {
    subject: `Order ${number} was not approved`,
    lines: [
      `We could not approve your order ${number}${input.reason ? `: ${input.reason}` : '.'}`,
      `Your payment of ${displayCents(toCents(input.total))} is being refunded in full to the account you paid with; a refund email follows once PayPal has completed it. No license key of this order was delivered.`,
    ],
  };
}

/** The email telling a buyer their order is being checked, or was rejected after the check. */
export function renderReviewEmail(input: ReviewEmailInput): RenderedEmail {
  const number = orderNumber(input.orderId);
  const { subject, lines } = paragraphs(input, number);
  const text = [
    `Hello ${input.customerName},`,
    '',
    ...lines.flatMap((line) => [line, '']),
    `Your order: ${orderPageLink(input)}`,
    '',
    ...signOffText(input.store, number),
  ].join('\n');
  const html = orderEmailHtml(
    { title: subject, store: input.store, number, links: input },
    `<h1 style="font-size:22px">${escapeHtml(subject)}</h1>
      <p>Hello ${escapeHtml(input.customerName)},</p>
      ${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('\n      ')}`,
  );
  return { subject, text, html };
}
