import { type OrderEvent, type OrderStatus, parseOrderEvent } from '@licensestore/shared';
import { type RecordedEvent, streamCategory } from '@licensestore/shared/eventstore';
import type { Logger } from '@licensestore/shared/logging';

/**
 * The order-stream events of a batch, in log order, validated at the boundary. An event that does not parse is
 * a recorded fact we cannot use: logged and skipped, never thrown.
 */
export function parseOrderBatch(
  events: readonly RecordedEvent[],
  log: Logger,
  projector: string,
): OrderEvent[] {
  const parsed: OrderEvent[] = [];
  for (const event of events) {
    if (streamCategory(event.streamId) !== 'order') continue;
    try {
      const order = parseOrderEvent(event.type, event.data);
      if (!order) continue;
      // Postgres compares uuids regardless of case; the folds key maps by the id text, so it has one spelling.
      order.data.orderId = order.data.orderId.toLowerCase();
      parsed.push(order);
    } catch (error) {
      log.warn(
        { projector, eventId: event.id, type: event.type, position: event.position, err: error },
        'skipping an order event whose data does not parse',
      );
    }
  }
  return parsed;
}

/**
 * Text a Postgres text column takes: NUL and lone surrogates become U+FFFD. The Postgres event store's jsonb
 * refuses them on append, EventStoreDB does not, and one such event must not stop a projector for good.
 */
export const storableText = (value: string) => value.replace(/[\0\p{Cs}]/gu, '\uFFFD');

/** How orders of one customer are grouped: addresses differing only in case or surrounding blanks are one. */
export const emailKey = (email: string) => storableText(email.trim().toLowerCase());

/**
 * Whether an order's total is money the store keeps: everything but cancelled (payment denied, or an admin
 * cancelled it) and refunded orders. Pending captures count: PayPal holds the money, and a denial cancels them.
 */
export const keepsMoney = (status: OrderStatus) => status !== 'cancelled' && status !== 'refunded';

/**
 * The status an event leaves its order in, and when. Null for the capture (it carries a whole order) and for
 * events that do not touch the status (order events added later, such as key assignment, land here first).
 */
export function statusChange(event: OrderEvent): { orderId: string; status: OrderStatus; at: string } | null {
  switch (event.type) {
    case 'OrderPaymentCompleted':
      return { orderId: event.data.orderId, status: 'processing', at: event.data.completedAt };
    case 'OrderPaymentDenied':
      return { orderId: event.data.orderId, status: 'cancelled', at: event.data.deniedAt };
    case 'OrderRefunded':
      return { orderId: event.data.orderId, status: 'refunded', at: event.data.refundedAt };
    case 'OrderStatusChanged':
      return { orderId: event.data.orderId, status: event.data.to, at: event.data.changedAt };
    default:
      return null;
  }
}
