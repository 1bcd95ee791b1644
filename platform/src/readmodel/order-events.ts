import { toCents } from '@licensestore/domain/money';
import type { PaymentState } from '@licensestore/domain/orders';
import {
  customerEmailKey,
  type OrderEvent,
  type OrderStatus,
  parseOrderEvent,
} from '@licensestore/domain/orders';
import { batchParser, withLowerCaseId } from './batch-parser.js';

/** The order-stream events of a batch, their order ids in lower case (the folds key maps by the id text). */
export const parseOrderBatch = batchParser<OrderEvent>({
  category: 'order',
  parse: (event) => {
    const order = parseOrderEvent(event.type, event.data);
    return order && withLowerCaseId(order, 'orderId');
  },
  describes: 'an order event',
});

/**
 * Text a Postgres text column takes: NUL and lone surrogates become U+FFFD. The Postgres event store's jsonb
 * refuses them on append, EventStoreDB does not, and one such event must not stop a projector for good.
 */
export const storableText = (value: string) => value.replace(/[\0\p{Cs}]/gu, '\uFFFD');

/** The shared customer key, storable as Postgres text. */
export const emailKey = (email: string) => storableText(customerEmailKey(email));

/**
 * Whether an order's total is money the store keeps: everything but cancelled (payment denied, or an admin
 * cancelled it) and refunded orders. Pending captures count: PayPal holds the money, and a denial cancels them.
 */
export const keepsMoney = (status: OrderStatus) => status !== 'cancelled' && status !== 'refunded';

/** When an order event happened: each carries its own timestamp. */
export function orderEventTime(event: OrderEvent): string {
  switch (event.type) {
    case 'OrderCaptured':
      return event.data.capturedAt;
    case 'OrderPaymentCompleted':
      return event.data.completedAt;
    case 'OrderPaymentDenied':
      return event.data.deniedAt;
    case 'OrderRefunded':
      return event.data.refundedAt;
    case 'OrderStatusChanged':
      return event.data.changedAt;
    case 'OrderReopened':
      return event.data.reopenedAt;
    case 'OrderLicenceKeysAssigned':
      return event.data.assignedAt;
    case 'OrderFulfilled':
      return event.data.fulfilledAt;
    case 'DeliveryEmailResendRequested':
      return event.data.requestedAt;
    case 'DeliveryEmailSent':
      return event.data.sentAt;
    case 'OrderRefundRequested':
      return event.data.requestedAt;
    case 'OrderRefundCompleted':
      return event.data.completedAt;
    case 'OrderRefundFailed':
      return event.data.failedAt;
    case 'LicenceKeysRevealed':
      return event.data.revealedAt;
    case 'OrderReceiptRequested':
      return event.data.requestedAt;
    case 'OrderReceiptIssued':
      return event.data.issuedAt;
    case 'OrderHeldForReview':
      return event.data.heldAt;
    case 'OrderApproved':
      return event.data.approvedAt;
    case 'OrderRejected':
      return event.data.rejectedAt;
    case 'OrderReviewEmailSent':
      return event.data.sentAt;
  }
}

/** An order event after the capture: it changes an order the projector already knows, or nothing. */
export type LaterOrderEvent = Exclude<OrderEvent, { type: 'OrderCaptured' }>;

/**
 * The status a placed order is left in by a later event, exactly as `evolveOrder` has it: a completed payment
 * moves only a pending order on, fulfilment completes only a processing one, the rest leave it as it is.
 */
export function statusAfter(status: OrderStatus, event: LaterOrderEvent): OrderStatus {
  switch (event.type) {
    case 'OrderPaymentCompleted':
      return status === 'pending' ? 'processing' : status;
    case 'OrderPaymentDenied':
      return 'cancelled';
    case 'OrderRefunded':
      return 'refunded';
    case 'OrderStatusChanged':
      return event.data.to;
    case 'OrderFulfilled':
      return status === 'processing' ? 'completed' : status;
    // The status a reopened order takes follows as OrderStatusChanged.
    case 'OrderReopened':
    case 'OrderLicenceKeysAssigned':
    case 'DeliveryEmailResendRequested':
    case 'DeliveryEmailSent':
    case 'OrderRefundRequested':
    case 'OrderRefundCompleted':
    case 'OrderRefundFailed':
    case 'LicenceKeysRevealed':
    case 'OrderReceiptRequested':
    case 'OrderReceiptIssued':
    // A review decides whether keys are delivered; the money and the status move by the refund a rejection asks.
    case 'OrderHeldForReview':
    case 'OrderApproved':
    case 'OrderRejected':
    case 'OrderReviewEmailSent':
      return status;
  }
}

/**
 * Where an order's money stands after a later event, exactly as `evolveOrder` has it: PayPal's news about a pending
 * capture moves it once (completed or denied), a refund of the whole total ends it; nothing an admin does changes it.
 */
export function paymentAfter(
  payment: PaymentState,
  event: LaterOrderEvent,
  money: { total: string; refundedBefore: string },
): PaymentState {
  switch (event.type) {
    case 'OrderPaymentCompleted':
      return 'completed';
    case 'OrderPaymentDenied':
      return 'denied';
    case 'OrderRefunded':
      return 'refunded';
    // Refunds of parts leave the payment completed; the one that makes up the whole total refunds it.
    case 'OrderRefundCompleted':
      return toCents(money.refundedBefore) + toCents(event.data.amount) >= toCents(money.total)
        ? 'refunded'
        : payment;
    default:
      return payment;
  }
}
