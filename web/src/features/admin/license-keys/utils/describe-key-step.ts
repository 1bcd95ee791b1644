import { orderNumber } from '@licensestore/domain/orders/order-number';
import { eventTypeLabel } from '@/features/admin/audit/utils/event-types';
import { actorName } from '@/features/admin/components/actor-name';
import type { AuditDetail } from '@/features/admin/components/audit-details';
import type { KeyHistoryEntry } from '../api/get-key-history';

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** Where a key was shown in clear, and to whom, for each door it can be shown through. */
const SHOWN: Record<string, (viewer: string) => string> = {
  'confirmation-page': () => 'Shown on the order confirmation page to the browser that paid',
  'email-link': () => "Shown through the delivery email's link",
  'my-orders': () => 'Shown on My Orders to the customer, signed in',
  'admin-reveal': (viewer) => `Shown to ${viewer} in the back office`,
};

/** Who saw the key: an admin by username (the step's own actor is the admin who asked to see it). */
const viewerOf = (entry: KeyHistoryEntry) => {
  const { type, id } = (entry.details.viewer ?? {}) as { type?: unknown; id?: unknown };
  if (type === 'admin') {
    return entry.actor.type === 'admin' && entry.actor.id === id ? actorName(entry.actor) : 'an admin';
  }
  return type === 'order-link' ? 'the holder of the order’s link' : 'the customer';
};

/** The step's stored event type and the ids behind its sentence, for an auditor to open. */
function detailsOf(entry: KeyHistoryEntry): AuditDetail[] {
  const { details } = entry;
  const rows: AuditDetail[] = [['Event', entry.eventType, 'name']];
  const add = (label: string, value: unknown) => {
    if (text(value)) rows.push([label, text(value), 'id']);
  };
  add('Import batch', entry.kind === 'imported' ? details.batch : undefined);
  add('Order line', details.lineId);
  add('Mail server message id', details.messageId);
  add('Address hash', details.clientHash);
  if (entry.actor.type !== 'customer') add('Recorded by (id)', entry.actor.id);
  return rows;
}

/** The step's title, one plain sentence on it with who did it, and the details an auditor may open. */
export function describeKeyStep(entry: KeyHistoryEntry): {
  title: string;
  summary: string;
  details: AuditDetail[];
} {
  const { details } = entry;
  const order = entry.orderId ? `order ${orderNumber(entry.orderId)}` : '';
  const by = actorName(entry.actor);
  const step = (title: string, summary: string) => ({ title, summary, details: detailsOf(entry) });
  switch (entry.kind) {
    case 'imported': {
      const size = typeof details.batchSize === 'number' ? details.batchSize : 1;
      return step('Imported', `Added to stock by ${by}, in a batch of ${size} key${size === 1 ? '' : 's'}`);
    }
    case 'removed':
      return step('Removed', `Taken out of stock by ${by} before anyone got it`);
    case 'assigned':
      return step('Assigned', `Given to ${order}`);
    case 'delivered':
      return step('Delivered', `Emailed to ${text(details.recipient)} for ${order}`);
    case 'revealed': {
      const shown = SHOWN[text(details.channel)];
      return step('Shown', shown ? shown(viewerOf(entry)) : `Shown to ${viewerOf(entry)}`);
    }
    default:
      return step(eventTypeLabel(entry.eventType), order ? `For ${order}, by ${by}` : `By ${by}`);
  }
}
