import { orderNumber } from '@licensestore/shared/orders/order-number';
import type { KeyHistoryEntry } from '../api/get-key-history';

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** How each door a key can be shown through is named to people. */
const CHANNELS: Record<string, string> = {
  'confirmation-page': 'on the order confirmation page (the browser that paid)',
  'email-link': "through the delivery e-mail's link",
  'my-orders': 'on My Orders (the customer signed in)',
  'admin-reveal': 'in the back office (an admin revealed it)',
};

const viewerOf = (viewer: unknown) => {
  const { type, id } = (viewer ?? {}) as { type?: unknown; id?: unknown };
  if (type === 'order-link') return 'the holder of the order’s access cookie';
  return `${type === 'admin' ? 'admin' : 'customer'} ${text(id)}`.trim();
};

/** 'LicenceKeyRevoked' → 'Licence key revoked' for steps of event types this screen has no words for yet. */
const titleOf = (type: string) => {
  const words = type
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/\blicence\b/g, 'license');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** The step's title and one sentence on it, from what the server recorded. */
export function describeKeyStep(entry: KeyHistoryEntry): { title: string; summary: string } {
  const { details } = entry;
  const order = entry.orderId ? `order ${orderNumber(entry.orderId)}` : '';
  switch (entry.kind) {
    case 'imported': {
      const size = typeof details.batchSize === 'number' ? details.batchSize : 1;
      return {
        title: 'Imported',
        summary: `Added in a batch of ${size} key${size === 1 ? '' : 's'} (batch ${text(details.batch)})`,
      };
    }
    case 'removed':
      return { title: 'Removed', summary: 'Taken out of the inventory before anyone got it' };
    case 'assigned':
      return { title: 'Assigned', summary: `Given to ${order}, line ${text(details.lineId)}` };
    case 'delivered':
      return {
        title: 'Delivered',
        summary: `E-mailed to ${text(details.recipient)} for ${order}; the mail server accepted it as message ${text(details.messageId)}`,
      };
    case 'revealed':
      return {
        title: 'Revealed',
        summary: `Shown in clear ${CHANNELS[text(details.channel)] ?? text(details.channel)} to ${viewerOf(details.viewer)} (address hash ${text(details.clientHash).slice(0, 12)}…)`,
      };
    default:
      return { title: titleOf(entry.eventType), summary: order ? `For ${order}` : '' };
  }
}
