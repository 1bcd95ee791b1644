import { formatPrice } from '@/lib/format';
import type { TimelineActor, TimelineEntry } from '../api/get-order-timeline';

/** 'OrderLicenceKeysAssigned' → 'Order licence keys assigned': the event's own name, readable. */
export const eventTitle = (type: string) => {
  const words = type.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

export const actorLabel = ({ type, id }: TimelineActor) =>
  type === 'system' ? `System (${id})` : `${type === 'admin' ? 'Admin' : 'Customer'} ${id}`;

const text = (value: unknown) => (typeof value === 'string' ? value : '');
const keyList = (keys: unknown) =>
  Array.isArray(keys) ? keys.map((key) => text((key as { key?: unknown }).key)).join(', ') : '';
const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/**
 * One sentence on what the event did, from its data (keys already masked by the server). Types this screen does
 * not know yet still show their name and their data.
 */
export function describeEvent({ type, data }: TimelineEntry): string | null {
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
    case 'LicenceKeysRequested':
      return `Line ${text(data.lineId)} asked the inventory for ${plural(Number(data.quantity), 'license key')}`;
    case 'LicenceKeysAssigned':
      return `The inventory gave line ${text(data.lineId)}: ${keyList(data.keys)}`;
    case 'OrderLicenceKeysAssigned':
      return `The order recorded for line ${text(data.lineId)}: ${keyList(data.keys)}`;
    case 'OrderFulfilled':
      return 'Every unit has its license key';
    case 'DeliveryEmailResendRequested':
      return 'The delivery email was asked for again';
    case 'DeliveryEmailSent':
      return `Delivery email sent to ${text(data.recipient)}`;
    case 'OrderStatusChanged':
      return `Status changed from ${text(data.from)} to ${text(data.to)}`;
    default:
      return null;
  }
}
