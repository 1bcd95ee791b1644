import type { OrderView } from '@licensestore/shared';

/**
 * What the confirmation page tells the buyer, from where the money stands (not from the status, which an admin may
 * set): PayPal is still reviewing the payment, PayPal declined it, or it is paid (refunds included: it was paid).
 */
export type PaymentStage = 'under-review' | 'declined' | 'paid';

export function paymentStage(order: Pick<OrderView, 'paymentStatus'>): PaymentStage {
  if (order.paymentStatus === 'pending') return 'under-review';
  if (order.paymentStatus === 'denied') return 'declined';
  return 'paid';
}
