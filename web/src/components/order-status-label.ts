/**
 * Whether an order is cancelled because PayPal declined its payment: the badges then say "Payment declined" rather
 * than "Cancelled", as if someone had cancelled it.
 */
export const isPaymentDeclined = (status: string, paymentStatus?: string) =>
  status.toLowerCase() === 'cancelled' && paymentStatus === 'denied';

export const PAYMENT_DECLINED = 'Payment declined';
