import { formatPrice } from '@/lib/format';
import type { TimelineActor, TimelineEntry } from '../api/get-order-timeline';

const text = (value: unknown) => (typeof value === 'string' ? value : '');
const keyList = (keys: unknown) =>
  Array.isArray(keys) ? keys.map((key) => text((key as { key?: unknown }).key)).join(', ') : '';
const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/**
 * 'OrderLicenceKeysAssigned' → 'Order license keys assigned': the event's own name, readable, in the screens' one
 * spelling (the exact type is shown beside it).
 */
export const eventTitle = (type: string) => {
  const words = type
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/\blicence\b/g, 'license');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

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

export const actorLabel = ({ type, id, name }: TimelineActor) =>
  type === 'system' ? `System (${id})` : `${type === 'admin' ? 'Admin' : 'Customer'} ${name ?? id}`;

/**
 * One sentence on what the event did, from its data (keys already masked by the server). Types this screen does
 * not know yet still show their name and their data.
 */
export function describeEvent({ type, data }: TimelineEntry, lines: Map<string, string>): string | null {
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
      return `Reopened${gaveUp}: new keys are taken from stock and e-mailed`;
    }
    case 'LicenceKeysRevealed': {
      const viewer = (data.viewer ?? {}) as { type?: unknown; id?: unknown };
      const who =
        viewer.type === 'order-link'
          ? 'the order access cookie holder'
          : `${text(viewer.type)} ${text(viewer.id)}`;
      const count = Array.isArray(data.keyIds) ? data.keyIds.length : 0;
      return `${plural(count, 'license key')} shown in clear (${text(data.channel)}) to ${who}`;
    }
    case 'OrderReceiptRequested':
      return `Paid: asked for the next receipt number of ${Number(data.year)}`;
    case 'ReceiptNumberAssigned':
      return `Receipt number ${text(data.receiptNumber)} taken from the year's receipts`;
    case 'OrderReceiptIssued':
      return `Receipt ${text(data.receiptNumber)} issued`;
    default:
      return null;
  }
}
