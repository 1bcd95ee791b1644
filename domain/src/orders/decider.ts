import { IllegalStateError } from '../errors/index.js';
import { receiptYear } from '../receipts/numbering.js';
import type { OrderEvent } from './events.js';
import {
  evolveOrder,
  type OrderCommand,
  type OrderCommandOf,
  type OrderState,
  type PlacedOrder,
  placed,
  sameCapture,
} from './order.js';
import { orderNumber } from './order-number.js';
import { completeOrderRefund, failOrderRefund, refundOrderUnits } from './refunds.js';
import { approveOrder, recordReviewEmailSent, rejectOrder } from './review.js';
import { unitsAwaitingKeys } from './units.js';

function placeCapturedOrder(cmd: OrderCommandOf<'PlaceCapturedOrder'>, state: OrderState): OrderEvent[] {
  // The checkout stream decided which order this capture is; placing it again (a repair retry) adds nothing.
  if (state.status !== 'absent') return [];
  const captured: OrderEvent = {
    type: 'OrderCaptured',
    data: {
      orderId: cmd.orderId,
      paypalOrderId: cmd.paypalOrderId,
      captureId: cmd.captureId,
      captureStatus: cmd.captureStatus,
      customer: cmd.customer,
      lines: cmd.lines,
      total: cmd.total,
      currency: cmd.currency,
      status: cmd.captureStatus === 'COMPLETED' ? 'processing' : 'pending',
      ...(cmd.clientHash ? { clientHash: cmd.clientHash } : {}),
      capturedAt: cmd.now,
    },
  };
  if (!cmd.heldFor?.length) return [captured];
  return [
    captured,
    {
      type: 'OrderHeldForReview',
      data: {
        orderId: cmd.orderId,
        rules: cmd.heldFor,
        ...(cmd.autoApproveAt ? { autoApproveAt: cmd.autoApproveAt } : {}),
        heldAt: cmd.now,
      },
    },
  ];
}

/** PayPal's last word on a capture under review settles it once; a later word on it (a redelivery) adds nothing. */
function settlePendingPayment(
  cmd: OrderCommandOf<'CompleteOrderPayment' | 'DenyOrderPayment'>,
  order: PlacedOrder,
): OrderEvent[] {
  sameCapture(order, cmd.captureId);
  if (order.payment !== 'pending') return [];
  const { orderId, captureId, now } = cmd;
  return cmd.type === 'CompleteOrderPayment'
    ? [{ type: 'OrderPaymentCompleted', data: { orderId, captureId, completedAt: now } }]
    : [{ type: 'OrderPaymentDenied', data: { orderId, captureId, deniedAt: now } }];
}

function changeOrderStatus(cmd: OrderCommandOf<'ChangeOrderStatus'>, order: PlacedOrder): OrderEvent[] {
  if (order.status === cmd.to) return [];
  // The money of a refunded order went back to the buyer: there is nothing left to serve it for.
  if (order.status === 'refunded') {
    throw new IllegalStateError(
      `Order ${orderNumber(order.orderId)} is ${order.status}: its license keys were released, so it cannot be reopened.`,
    );
  }
  const changed: OrderEvent = {
    type: 'OrderStatusChanged',
    data: { orderId: cmd.orderId, from: order.status, to: cmd.to, changedAt: cmd.now },
  };
  return order.status === 'cancelled' ? [reopenOrder(order, cmd.now), changed] : [changed];
}

/**
 * A cancelled order set to any other status is served again as a paid one is: it gives up the keys it held (they
 * were revoked or went back to stock when it was cancelled) and is owed new ones for its units still the customer's.
 * Only an order whose money the store keeps can be: a denied payment took none, a refund gave it back.
 */
function reopenOrder(order: PlacedOrder, now: string): OrderEvent {
  const number = orderNumber(order.orderId);
  if (order.payment === 'denied') {
    throw new IllegalStateError(
      `Order ${number} is cancelled: its payment was denied by PayPal, so no money was taken and it cannot be reopened.`,
    );
  }
  if (order.payment === 'refunded') {
    throw new IllegalStateError(
      `Order ${number} is cancelled and its money was refunded to the buyer, so it cannot be reopened.`,
    );
  }
  const keysGivenUp = Object.entries(order.keys).flatMap(([lineId, keys]) =>
    keys.map((key) => ({ lineId, keyId: key.keyId })),
  );
  return { type: 'OrderReopened', data: { orderId: order.orderId, keysGivenUp, reopenedAt: now } };
}

function recordLicenseKeys(cmd: OrderCommandOf<'RecordLicenseKeys'>, order: PlacedOrder): OrderEvent[] {
  const line = order.lines.find((candidate) => candidate.lineId === cmd.lineId);
  if (!line) throw new IllegalStateError(`order ${order.orderId} has no line ${cmd.lineId}`);
  const held = new Set((order.keys[line.lineId] ?? []).map((key) => key.keyId));
  const givenUp = new Set(order.keysGivenUp[line.lineId] ?? []);
  // Recording the same assignment again (a retried job) adds nothing, nor does one of a key the order gave up.
  const keys = cmd.keys.filter((key) => !held.has(key.keyId) && !givenUp.has(key.keyId));
  if (keys.length === 0) return [];
  if (held.size + keys.length > line.quantity) {
    throw new IllegalStateError(
      `line ${line.lineId} of order ${order.orderId} needs ${line.quantity} keys, not more`,
    );
  }
  const assigned: OrderEvent = {
    type: 'OrderLicenceKeysAssigned',
    data: { orderId: order.orderId, lineId: line.lineId, keys, assignedAt: cmd.now },
  };
  const after = evolveOrder(order, assigned) as PlacedOrder;
  if (after.fulfilled || unitsAwaitingKeys(after) > 0) return [assigned];
  return [assigned, { type: 'OrderFulfilled', data: { orderId: order.orderId, fulfilledAt: cmd.now } }];
}

function requestDeliveryEmailResend(
  cmd: OrderCommandOf<'RequestDeliveryEmailResend'>,
  order: PlacedOrder,
): OrderEvent[] {
  if (order.status === 'cancelled' || order.status === 'refunded') {
    throw new IllegalStateError(
      `Order ${orderNumber(order.orderId)} is ${order.status}: its license keys are not sent again.`,
    );
  }
  if (order.review === 'held') {
    throw new IllegalStateError(
      `Order ${orderNumber(order.orderId)} is being checked: its license keys are sent once it is approved.`,
    );
  }
  if (!order.fulfilled) {
    throw new IllegalStateError(
      `Order ${orderNumber(order.orderId)} is still waiting for license keys; ` +
        'its delivery email goes out as soon as every key is assigned.',
    );
  }
  return [{ type: 'DeliveryEmailResendRequested', data: { orderId: order.orderId, requestedAt: cmd.now } }];
}

function recordDeliveryEmailSent(
  cmd: OrderCommandOf<'RecordDeliveryEmailSent'>,
  order: PlacedOrder,
): OrderEvent[] {
  if (order.emailsSent.includes(cmd.trigger)) return [];
  return [
    {
      type: 'DeliveryEmailSent',
      data: {
        orderId: order.orderId,
        trigger: cmd.trigger,
        recipient: cmd.recipient,
        messageId: cmd.messageId,
        sentAt: cmd.now,
      },
    },
  ];
}

function requestReceipt(cmd: OrderCommandOf<'RequestReceipt'>, order: PlacedOrder): OrderEvent[] {
  if (order.paidAt === null) {
    throw new IllegalStateError(
      `order ${order.orderId} is not paid (payment ${order.payment}): it has no receipt`,
    );
  }
  // Asked already (a retried or concurrent job): the first request's place in the year's stream stands.
  if (order.receipt) return [];
  const year = receiptYear(order.paidAt);
  if (cmd.year !== year) {
    throw new IllegalStateError(
      `order ${order.orderId} was paid in ${year}: its receipt is not one of ${cmd.year}`,
    );
  }
  return [
    {
      type: 'OrderReceiptRequested',
      data: {
        orderId: order.orderId,
        year,
        receiptsAfterRevision: cmd.receiptsAfterRevision,
        requestedAt: cmd.now,
      },
    },
  ];
}

function issueReceipt(cmd: OrderCommandOf<'IssueReceipt'>, order: PlacedOrder): OrderEvent[] {
  if (!order.receipt)
    throw new IllegalStateError(`order ${order.orderId} has not asked for a receipt number`);
  if (order.receipt.number === cmd.receiptNumber) return [];
  if (order.receipt.number !== null) {
    throw new IllegalStateError(
      `order ${order.orderId} holds receipt ${order.receipt.number}; it cannot also be ${cmd.receiptNumber}`,
    );
  }
  return [
    {
      type: 'OrderReceiptIssued',
      data: { orderId: order.orderId, receiptNumber: cmd.receiptNumber, issuedAt: cmd.now },
    },
  ];
}

export function decideOrder(cmd: OrderCommand, state: OrderState): OrderEvent[] {
  if (cmd.type === 'PlaceCapturedOrder') return placeCapturedOrder(cmd, state);
  const order = placed(state);
  switch (cmd.type) {
    case 'CompleteOrderPayment':
    case 'DenyOrderPayment':
      return settlePendingPayment(cmd, order);
    case 'ApproveOrder':
      return approveOrder(cmd, order);
    case 'RejectOrder':
      return rejectOrder(cmd, order);
    case 'RecordReviewEmailSent':
      return recordReviewEmailSent(cmd, order);
    case 'RefundOrderUnits':
      return refundOrderUnits(cmd, order);
    case 'CompleteOrderRefund':
      return completeOrderRefund(cmd, order);
    case 'FailOrderRefund':
      return failOrderRefund(cmd, order);
    case 'ChangeOrderStatus':
      return changeOrderStatus(cmd, order);
    case 'RecordLicenseKeys':
      return recordLicenseKeys(cmd, order);
    case 'RequestDeliveryEmailResend':
      return requestDeliveryEmailResend(cmd, order);
    case 'RecordDeliveryEmailSent':
      return recordDeliveryEmailSent(cmd, order);
    case 'RequestReceipt':
      return requestReceipt(cmd, order);
    case 'IssueReceipt':
      return issueReceipt(cmd, order);
    default: {
      const exhaustive: never = cmd;
      return exhaustive;
    }
  }
}
