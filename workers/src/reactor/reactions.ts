import {
  type CheckoutEvent,
  type LicenseKeyEvent,
  type OrderEvent,
  parseCheckoutEvent,
  parseLicenseKeyEvent,
  parseOrderEvent,
} from '@licensestore/domain';
import type { RecordedEvent } from '@licensestore/domain/events';
import { causeOf } from '../jobs/causation.js';
import { approveHeldOrderJob } from '../processors/approve-held-order.js';
import { assignKeysJob } from '../processors/assign-keys.js';
import type { SideEffectSettings } from '../processors/context.js';
import { issueReceiptJob } from '../processors/issue-receipt.js';
import { ORDER_REPAIR_DELAY_MS, placeCapturedOrderJob } from '../processors/place-captured-order.js';
import { recordOrderKeysJob } from '../processors/record-order-keys.js';
import { releaseKeysJob } from '../processors/release-keys.js';
import { sendDeliveryEmailJob } from '../processors/send-delivery-email.js';
import { sendLowStockAlertJob } from '../processors/send-low-stock-alert.js';
import { sendRefundEmailJob } from '../processors/send-refund-email.js';
import { sendReviewEmailJob } from '../processors/send-review-email.js';
import type { Reactions } from './reactor.js';

/** The event's data, validated by its stream's parser as its type says (a reaction only sees its own type). */
function dataOf<Event extends { type: string; data: unknown }, Type extends Event['type']>(
  parse: (type: string, data: unknown) => Event | null,
  event: RecordedEvent,
  type: Type,
) {
  const parsed = parse(event.type, event.data);
  if (parsed?.type !== type) throw new Error(`event ${event.id} is not ${type}`);
  return parsed.data as Extract<Event, { type: Type }>['data'];
}

const checkoutData = <Type extends CheckoutEvent['type']>(event: RecordedEvent, type: Type) =>
  dataOf(parseCheckoutEvent, event, type);
const orderData = <Type extends OrderEvent['type']>(event: RecordedEvent, type: Type) =>
  dataOf(parseOrderEvent, event, type);
const inventoryData = <Type extends LicenseKeyEvent['type']>(event: RecordedEvent, type: Type) =>
  dataOf(parseLicenseKeyEvent, event, type);

/** Which recorded events cause which jobs (ADR 008 draws the chain). */
export const workerReactions = ({
  orderRepairDelayMs = ORDER_REPAIR_DELAY_MS,
}: Pick<SideEffectSettings, 'orderRepairDelayMs'> = {}): Reactions => ({
  // The api places the order right after the capture; a crash in between leaves a paid checkout without one.
  CheckoutCaptured: (event) => {
    const { paypalOrderId, orderId } = checkoutData(event, 'CheckoutCaptured');
    return placeCapturedOrderJob({ paypalOrderId, orderId }, causeOf(event), orderRepairDelayMs);
  },
  // A PENDING capture is not paid yet: its keys and its receipt wait for OrderPaymentCompleted (a denied one never
  // gets either).
  OrderCaptured: (event) => {
    const { orderId, captureStatus } = orderData(event, 'OrderCaptured');
    return captureStatus === 'COMPLETED'
      ? [assignKeysJob(orderId, causeOf(event)), issueReceiptJob(orderId, causeOf(event))]
      : null;
  },
  OrderPaymentCompleted: (event) => {
    const { orderId } = orderData(event, 'OrderPaymentCompleted');
    return [assignKeysJob(orderId, causeOf(event)), issueReceiptJob(orderId, causeOf(event))];
  },
  LicenceKeysAssigned: (event) => {
    const { orderId, lineId, keys } = inventoryData(event, 'LicenceKeysAssigned');
    return recordOrderKeysJob({ orderId, lineId, keys }, causeOf(event));
  },
  // An order that gave units up gives their keys back (revoked if they left the store) and leaves the queue; the
  // customer is told by email how much went back and which keys no longer work.
  OrderRefundCompleted: (event) => {
    const { orderId, amount, units } = orderData(event, 'OrderRefundCompleted');
    return [
      releaseKeysJob(orderId, causeOf(event)),
      sendRefundEmailJob({ orderId, amount, units }, causeOf(event)),
    ];
  },
  OrderRefunded: (event) => releaseKeysJob(orderData(event, 'OrderRefunded').orderId, causeOf(event)),
  OrderPaymentDenied: (event) =>
    releaseKeysJob(orderData(event, 'OrderPaymentDenied').orderId, causeOf(event)),
  OrderStatusChanged: (event) => {
    const { orderId, to } = orderData(event, 'OrderStatusChanged');
    return to === 'cancelled' ? releaseKeysJob(orderId, causeOf(event)) : null;
  },
  // A cancelled order set back to another status is served again: its keys were taken back, so it asks for new ones
  // (they come from stock, or it waits in line), and their OrderFulfilled sends a new delivery e-mail. The job first
  // gives back the keys it gave up, in case the cancel's release-keys job has not run yet.
  OrderReopened: (event) => assignKeysJob(orderData(event, 'OrderReopened').orderId, causeOf(event)),
  // A held order's keys are set aside as any order's are; its delivery e-mail waits for the approval, which sends it
  // (or, when keys are still owed then, the OrderFulfilled that follows does).
  OrderFulfilled: (event) =>
    sendDeliveryEmailJob({ orderId: orderData(event, 'OrderFulfilled').orderId }, causeOf(event)),
  OrderApproved: (event) =>
    sendDeliveryEmailJob({ orderId: orderData(event, 'OrderApproved').orderId }, causeOf(event)),
  // The buyer is told the order is being checked; when the rules approve after a wait, that approval is due then.
  OrderHeldForReview: (event) => {
    const { orderId, autoApproveAt } = orderData(event, 'OrderHeldForReview');
    const told = sendReviewEmailJob({ orderId, kind: 'held', reason: null }, causeOf(event));
    return autoApproveAt ? [told, approveHeldOrderJob(orderId, autoApproveAt, causeOf(event))] : told;
  },
  // The rejection's refund gives the money and the keys back as every refund does; this tells the buyer why.
  OrderRejected: (event) => {
    const { orderId, reason } = orderData(event, 'OrderRejected');
    return sendReviewEmailJob({ orderId, kind: 'rejected', reason }, causeOf(event));
  },
  DeliveryEmailResendRequested: (event) =>
    sendDeliveryEmailJob(
      { orderId: orderData(event, 'DeliveryEmailResendRequested').orderId },
      causeOf(event),
    ),
  LicenceKeyStockLow: (event) => {
    const { productId, available, threshold } = inventoryData(event, 'LicenceKeyStockLow');
    return sendLowStockAlertJob({ productId, available, threshold }, causeOf(event));
  },
});
