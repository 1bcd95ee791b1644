import type { BuyerOrderMoney } from '@licensestore/contract/orders';
import type { OrderView } from '@licensestore/domain';
import { toCents } from '@/lib/format';

/**
 * What the order page tells the buyer first: PayPal is still reviewing the payment, or declined it; the store is
 * checking the order before sending its keys, or did not approve it; the order was
 * cancelled, refunded in full or in part; or it is paid and every key still works. Where the money stands comes
 * before the status an admin may set: a refunded or declined payment says so whatever the status.
 */
export type OrderStage =
  | 'under-review'
  | 'declined'
  | 'being-checked'
  | 'not-approved'
  | 'cancelled'
  | 'refunded'
  | 'partly-refunded'
  | 'paid';

export function orderStage(
  order: Pick<OrderView, 'paymentStatus' | 'status' | 'reviewStatus'> &
    Pick<BuyerOrderMoney, 'refundedTotal'>,
): OrderStage {
  if (order.paymentStatus === 'pending') return 'under-review';
  if (order.paymentStatus === 'denied') return 'declined';
  // The store's own check comes after PayPal's: a held order is paid, its keys set aside until it is approved.
  if (order.reviewStatus === 'rejected') return 'not-approved';
  if (order.reviewStatus === 'held') return 'being-checked';
  if (order.paymentStatus === 'refunded' || order.status === 'refunded') return 'refunded';
  if (order.status === 'cancelled') return 'cancelled';
  if (toCents(order.refundedTotal) > 0) return 'partly-refunded';
  return 'paid';
}

/** Stages in which license keys of the order still work (all of them, or those not refunded). */
export const keysWork = (stage: OrderStage) => stage === 'paid' || stage === 'partly-refunded';

/** Stages after which no more keys come: those given were taken back. */
export const keysTakenBack = (stage: OrderStage) =>
  stage === 'cancelled' || stage === 'refunded' || stage === 'not-approved';
