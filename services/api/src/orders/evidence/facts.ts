import {
  ORDER_EVENT_CATEGORIES,
  orderNumber,
  parseCheckoutEvent,
  parseOrderEvent,
  type RevealChannel,
} from '@licensestore/domain';
import { maskOpened } from '@licensestore/domain/audit';
import { type RecordedEvent, streamCategory } from '@licensestore/domain/events';
import type { RevealKey } from '../../license-keys/reveal.js';
import type { RevealViewer } from '../access.js';

/** What a person reads in an evidence pack, gathered from the order's events (keys masked). */
export interface EvidenceFacts {
  orderId: string;
  orderNumber: string;
  placedAt: string;
  paypalOrderId: string;
  captureId: string;
  /** The capture's status as the events leave it: COMPLETED, PENDING, or DENIED. */
  captureStatus: string;
  amount: string;
  currency: string;
  customer: { name: string; email: string };
  lines: Array<{
    productName: string;
    quantity: number;
    unitPrice: string;
    lineTotal: string;
    keys: string[];
  }>;
  payment: Array<{ at: string; what: string }>;
  deliveries: Array<{ sentAt: string; messageId: string; recipient: string }>;
  reveals: Array<{
    revealedAt: string;
    channel: RevealChannel;
    viewer: RevealViewer;
    keys: string[];
    clientHash: string;
  }>;
  refunds: Array<{ at: string; what: string }>;
  /** Status changes an admin made by hand, with the admin's id (`by`) until `withAdminNames` names them. */
  statusChanges: Array<{ at: string; from: string; to: string; by: string }>;
}

/**
 * The facts with each admin named by username (status changes made by hand, keys an admin was shown); an admin
 * removed since keeps the id.
 */
export function withAdminNames(facts: EvidenceFacts, names: ReadonlyMap<string, string>): EvidenceFacts {
  const named = (id: string) => names.get(id) ?? `a removed back-office user (${id})`;
  return {
    ...facts,
    statusChanges: facts.statusChanges.map((change) => ({ ...change, by: named(change.by) })),
    reveals: facts.reveals.map((reveal) =>
      reveal.viewer.type === 'admin' && reveal.viewer.id
        ? { ...reveal, viewer: { ...reveal.viewer, id: named(reveal.viewer.id) } }
        : reveal,
    ),
  };
}

/** The ids of the admins the facts name: who changed the status by hand, who was shown the keys. */
export const adminIdsOf = (facts: EvidenceFacts): string[] => [
  ...new Set([
    ...facts.statusChanges.map((change) => change.by),
    ...facts.reveals.flatMap((reveal) =>
      reveal.viewer.type === 'admin' && reveal.viewer.id ? [reveal.viewer.id] : [],
    ),
  ]),
];

const byPosition = (a: RecordedEvent, b: RecordedEvent) =>
  a.position < b.position ? -1 : a.position > b.position ? 1 : 0;

/**
 * The facts of an order from its own events, in log order; null when they hold no capture. Keys are named by
 * their masked text only (`XXXXX-…-ABCD`): a pack goes to PayPal or a bank, where a key in clear would be stock
 * given away.
 */
export function evidenceFacts(
  orderId: string,
  events: readonly RecordedEvent[],
  reveal: RevealKey,
): EvidenceFacts | null {
  const sorted = [...events].sort(byPosition);
  const orderEvents = sorted.flatMap((event) => {
    if (!ORDER_EVENT_CATEGORIES.has(streamCategory(event.streamId))) return [];
    const parsed = parseOrderEvent(event.type, event.data);
    return parsed ? [{ parsed, recorded: event }] : [];
  });
  const captured = orderEvents.find(({ parsed }) => parsed.type === 'OrderCaptured')?.parsed;
  if (captured?.type !== 'OrderCaptured') return null;
  const checkout = sorted
    .map((event) => parseCheckoutEvent(event.type, event.data))
    .find((event) => event?.type === 'CheckoutCaptured');

  const maskedById = new Map<string, string>();
  // A refund that leaves no unit live records the status change to refunded with it, at the same moment.
  let refundCompletedAt: string | null = null;
  const keysOfLine = new Map<string, string[]>();
  const facts: EvidenceFacts = {
    orderId,
    orderNumber: orderNumber(orderId),
    placedAt: captured.data.capturedAt,
    paypalOrderId: captured.data.paypalOrderId,
    captureId: captured.data.captureId,
    captureStatus: captured.data.captureStatus,
    amount: captured.data.total,
    currency: captured.data.currency,
    customer: checkout?.type === 'CheckoutCaptured' ? checkout.data.customer : captured.data.customer,
    lines: [],
    payment: [
      {
        at: captured.data.capturedAt,
        what: `PayPal capture ${captured.data.captureId}: ${captured.data.captureStatus}`,
      },
    ],
    deliveries: [],
    reveals: [],
    refunds: [],
    statusChanges: [],
  };
  for (const { parsed: event, recorded } of orderEvents) {
    switch (event.type) {
      case 'OrderLicenceKeysAssigned':
        for (const { keyId, key } of event.data.keys) {
          const shown = maskOpened(reveal(key, { orderId, keyId }));
          maskedById.set(keyId, shown);
          keysOfLine.set(event.data.lineId, [...(keysOfLine.get(event.data.lineId) ?? []), shown]);
        }
        break;
      case 'OrderPaymentCompleted':
        facts.captureStatus = 'COMPLETED';
        facts.payment.push({ at: event.data.completedAt, what: 'PayPal completed the pending capture' });
        break;
      case 'OrderPaymentDenied':
        facts.captureStatus = 'DENIED';
        facts.payment.push({ at: event.data.deniedAt, what: 'PayPal denied the pending capture' });
        break;
      // A hold and its decision say why the keys went out when they did (or never did).
      case 'OrderHeldForReview':
        facts.payment.push({
          at: event.data.heldAt,
          what: `Held for review by the risk rules (${event.data.rules.join(', ')}): keys set aside, not delivered`,
        });
        break;
      case 'OrderApproved':
        facts.payment.push({
          at: event.data.approvedAt,
          what: event.data.automatic ? 'Approved automatically after the set wait' : 'Approved after review',
        });
        break;
      case 'OrderRejected':
        facts.payment.push({
          at: event.data.rejectedAt,
          what: `Rejected after review: ${event.data.reason}`,
        });
        break;
      case 'DeliveryEmailSent':
        facts.deliveries.push({
          sentAt: event.data.sentAt,
          messageId: event.data.messageId,
          recipient: event.data.recipient,
        });
        break;
      case 'LicenceKeysRevealed':
        facts.reveals.push({
          revealedAt: event.data.revealedAt,
          channel: event.data.channel,
          viewer: event.data.viewer,
          keys: event.data.keyIds.map((keyId) => maskedById.get(keyId) ?? keyId),
          clientHash: event.data.clientHash,
        });
        break;
      case 'OrderRefunded':
        facts.refunds.push({
          at: event.data.refundedAt,
          what: 'The whole capture was refunded (PayPal webhook)',
        });
        break;
      case 'OrderRefundRequested':
        facts.refunds.push({
          at: event.data.requestedAt,
          what: `Refund of ${event.data.amount} ${facts.currency} requested for ${event.data.units.length} unit(s): ${event.data.reason}`,
        });
        break;
      case 'OrderRefundCompleted':
        refundCompletedAt = event.data.completedAt;
        facts.refunds.push({
          at: event.data.completedAt,
          what: `PayPal refunded ${event.data.amount} ${facts.currency} (refund ${event.data.paypalRefundId})`,
        });
        break;
      case 'OrderRefundFailed':
        facts.refunds.push({
          at: event.data.failedAt,
          what: `PayPal refused a refund: ${event.data.code}`,
        });
        break;
      case 'OrderStatusChanged':
        if (event.data.to === 'refunded' && event.data.changedAt === refundCompletedAt) {
          facts.refunds.push({
            at: event.data.changedAt,
            what: `With that refund no unit was left, so the order went from ${event.data.from} to refunded`,
          });
        } else if (recorded.metadata.actor.type === 'admin') {
          facts.statusChanges.push({
            at: event.data.changedAt,
            from: event.data.from,
            to: event.data.to,
            by: recorded.metadata.actor.id,
          });
        }
        break;
      default:
        break;
    }
  }
  facts.lines = captured.data.lines.map((line) => ({
    productName: line.productName,
    quantity: line.quantity,
    unitPrice: line.unitPrice,
    lineTotal: line.lineTotal,
    keys: keysOfLine.get(line.lineId) ?? [],
  }));
  return facts;
}
