import type { OrderView } from '@licensestore/domain';

/**
 * Why the delivery email cannot be sent again, or null when it can: a refunded or cancelled order's license keys
 * no longer work, so the store refuses to send them again.
 */
export function resendUnavailableReason(order: Pick<OrderView, 'status'>): string | null {
  if (order.status === 'refunded')
    return 'Not available: the order is refunded, so its license keys no longer work.';
  if (order.status === 'cancelled')
    return 'Not available: the order is cancelled, so its license keys are not sent.';
  return null;
}
