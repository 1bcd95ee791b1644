import { actorName } from '@/features/admin/components/actor-name';
import { formatPrice } from '@/lib/format';
import type { TimelineEntry } from '../api/get-order-timeline';

const text = (value: unknown) => (typeof value === 'string' ? value : '');
const keyList = (keys: unknown) =>
  Array.isArray(keys) ? keys.map((key) => text((key as { key?: unknown }).key)).join(', ') : '';
const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** Order lines by id → product name, from the OrderCaptured event: inventory events name lines by id only. */
export function lineNames(entries: TimelineEntry[]): Map<string, string> {
  const captured = entries.find((entry) => entry.type === 'OrderCaptured');
  const lines = Array.isArray(captured?.data.lines) ? captured.data.lines : [];
  return new Map(
    lines.map((line: { lineId?: unknown; productName?: unknown }) => [
      text(line.lineId),
      text(line.productName),
    ]),
  );
}

// The event log names actors as the timeline does.
export { actorLabel } from '@/features/admin/components/actor-name';

/** Where keys were shown in clear, for each door they can be shown through. */
const SHOWN_WHERE: Record<string, string> = {
  'confirmation-page': 'on the order confirmation page',
  'email-link': "through the delivery email's link",
  'my-orders': 'on My Orders',
  'admin-reveal': 'in the back office',
};

/** Who saw the keys: an admin by username (the event's own actor is the admin who asked to see them). */
function viewerOf({ data, actor }: TimelineEntry) {
  const { type, id } = (data.viewer ?? {}) as { type?: unknown; id?: unknown };
  if (type === 'admin') return actor.type === 'admin' && actor.id === id ? actorName(actor) : 'an admin';
  return type === 'order-link' ? 'the browser holding the order’s link' : 'the customer';
}

/**
 * One sentence on what the event did, from its data (keys already masked by the server). Types this screen does
 * not know yet still show their name and their data.
 */
export function describeEvent(entry: TimelineEntry, lines: Map<string, string>): string | null {
  const { type, data } = entry;
  const line = lines.get(text(data.lineId)) ?? `line ${text(data.lineId)}`;
  switch (type) {
    case 'CheckoutStarted': {
      const lines = Array.isArray(data.lines) ? data.lines.length : 0;
      return `PayPal order ${text(data.paypalOrderId)} created for ${plural(lines, 'line')}, ${formatPrice(text(data.total))}`;
    }
    case 'CheckoutCaptured':
      return `PayPal capture ${text(data.captureId)} (${text(data.captureStatus)}) became this order`;
    case 'OrderCaptured': {
      const customer = (data.customer ?? {}) as { name?: unknown; email?: unknown };
      return `Order placed by ${text(customer.name)} (${text(customer.email)}) for ${formatPrice(text(data.total))}, status ${text(data.status)}`;
    }
    case 'OrderPaymentCompleted':
      return 'The pending PayPal payment completed';
    case 'OrderPaymentDenied':
      return 'PayPal denied the payment: the order is cancelled';
    case 'OrderRefunded':
      return 'The payment was refunded';
    case 'OrderRefundRequested': {
      const units = Array.isArray(data.units) ? data.units.length : 0;
      return `Refund of ${plural(units, 'unit')} (${formatPrice(text(data.amount))}) asked of PayPal: ${text(data.reason)}`;
    }
    case 'OrderRefundCompleted': {
      const units = Array.isArray(data.units) ? data.units.length : 0;
      const whose = data.refundId === null ? " made in PayPal's dashboard" : '';
      return `PayPal refunded ${formatPrice(text(data.amount))}${whose}: ${units > 0 ? plural(units, 'unit') : 'money only'}`;
    }
    case 'OrderRefundFailed':
      return `PayPal refused the refund (${text(data.code)}): ${text(data.message)}`;
    case 'LicenceKeyRevoked':
      return `A license key of ${line} was revoked for good`;
    case 'LicenceKeyReturned':
      return `A license key of ${line} went back to stock`;
    case 'LicenceKeysRequestWithdrawn':
      return `${line} stopped waiting for ${plural(Number(data.quantity), 'license key')}`;
    case 'LicenceKeysRequested':
      return `Asked the inventory for ${plural(Number(data.quantity), 'license key')} of ${line}`;
    case 'LicenceKeysAssigned':
      return `The inventory gave ${line}: ${keyList(data.keys)}`;
    case 'OrderLicenceKeysAssigned':
      return `The order recorded for ${line}: ${keyList(data.keys)}`;
    case 'OrderFulfilled':
      return 'Every unit has its license key';
    case 'DeliveryEmailResendRequested':
      return 'The delivery email was asked for again';
    case 'DeliveryEmailSent':
      return `Delivery email sent to ${text(data.recipient)}`;
    case 'OrderStatusChanged':
      return `Status changed from ${text(data.from)} to ${text(data.to)}`;
    case 'OrderReopened': {
      const count = Array.isArray(data.keysGivenUp) ? data.keysGivenUp.length : 0;
      const gaveUp = count > 0 ? `, giving up its ${plural(count, 'old license key')}` : '';
      return `Reopened${gaveUp}: new keys are taken from stock and emailed`;
    }
    case 'LicenceKeysRevealed': {
      const count = Array.isArray(data.keyIds) ? data.keyIds.length : 0;
      return `${plural(count, 'license key')} shown in clear ${SHOWN_WHERE[text(data.channel)] ?? ''} to ${viewerOf(entry)}`;
    }
    case 'OrderReceiptRequested':
      return `Paid: asked for the next receipt number of ${Number(data.year)}`;
    case 'ReceiptNumberAssigned':
      return `Receipt number ${text(data.receiptNumber)} taken from the year's receipts`;
    case 'OrderReceiptIssued':
      return `Receipt ${text(data.receiptNumber)} issued`;
    case 'OrderHeldForReview': {
      const rules = Array.isArray(data.rules) ? data.rules.map(text).join(', ') : '';
      return `Held for review by the risk rules (${rules}): keys set aside, not delivered`;
    }
    case 'OrderApproved':
      return data.automatic === true
        ? 'Approved automatically after the set wait: keys are delivered'
        : 'Approved after review: keys are delivered';
    case 'OrderRejected':
      return `Rejected after review: ${text(data.reason)}`;
    case 'OrderReviewEmailSent':
      return `Review email sent to ${text(data.recipient)}`;
    case 'RiskRulesChanged': {
      const fields = Array.isArray(data.changedFields) ? data.changedFields.map(text).join(', ') : '';
      return `Risk rules changed: ${fields}`;
    }
    case 'RiskWhatIfRun': {
      const result = (data.result ?? {}) as { held?: unknown; orders?: unknown };
      return `What-if run: the draft would have held ${Number(result.held)} of ${Number(result.orders)} orders`;
    }
    default:
      return null;
  }
}
