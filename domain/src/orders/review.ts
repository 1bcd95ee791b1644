import { IllegalStateError } from '../errors/index.js';
import type { OrderEvent } from './events.js';
import type { OrderCommandOf, PlacedOrder } from './order.js';
import { orderNumber } from './order-number.js';
import { refundOrderUnits } from './refunds.js';

/**
 * Only a held order waits for a decision, and only one decision counts: of an approval and a rejection made at
 * once, the second finds the first recorded and is told which it was.
 */
function assertHeld(order: PlacedOrder, decision: 'approved' | 'rejected') {
  const number = orderNumber(order.orderId);
  if (order.review === null) {
    throw new IllegalStateError(`Order ${number} was not held for review: there is nothing to decide.`);
  }
  if (order.review !== 'held') {
    throw new IllegalStateError(
      `Order ${number} was already ${order.review} by someone else: it cannot also be ${decision}.`,
    );
  }
}

export function approveOrder(cmd: OrderCommandOf<'ApproveOrder'>, order: PlacedOrder): OrderEvent[] {
  assertHeld(order, 'approved');
  if (order.status === 'cancelled' || order.status === 'refunded') {
    throw new IllegalStateError(
      `Order ${orderNumber(order.orderId)} is ${order.status}: its license keys are no longer the buyer's to receive.`,
    );
  }
  return [
    {
      type: 'OrderApproved',
      data: { orderId: order.orderId, automatic: cmd.automatic, approvedAt: cmd.now },
    },
  ];
}

/**
 * A rejected order gives the buyer's money back in full, through the refund every admin refund takes (its keys go
 * back to stock when PayPal completes it). A payment PayPal denied took no money: the rejection is all there is.
 */
export function rejectOrder(cmd: OrderCommandOf<'RejectOrder'>, order: PlacedOrder): OrderEvent[] {
  assertHeld(order, 'rejected');
  const rejected: OrderEvent = {
    type: 'OrderRejected',
    data: { orderId: order.orderId, reason: cmd.reason, rejectedAt: cmd.now },
  };
  if (order.payment === 'denied') return [rejected];
  const refund = refundOrderUnits(
    {
      type: 'RefundOrderUnits',
      orderId: order.orderId,
      refundId: cmd.refundId,
      units: 'all',
      reason: `Rejected after review: ${cmd.reason}`.slice(0, 500),
      now: cmd.now,
    },
    order,
  );
  return [rejected, ...refund];
}

/** Once per trigger: a retried job's second record adds nothing. */
export function recordReviewEmailSent(
  cmd: OrderCommandOf<'RecordReviewEmailSent'>,
  order: PlacedOrder,
): OrderEvent[] {
  if (order.reviewEmailsSent.includes(cmd.trigger)) return [];
  const { trigger, recipient, messageId, now } = cmd;
  return [
    {
      type: 'OrderReviewEmailSent',
      data: { orderId: order.orderId, trigger, recipient, messageId, sentAt: now },
    },
  ];
}
