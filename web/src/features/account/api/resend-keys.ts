import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';

/**
 * POST /api/my-orders/:orderId/delivery-email: the order's delivery e-mail once more, to the order's address. The
 * store throttles it and refuses cancelled or refunded orders, each with a sentence for the customer.
 */
async function resendKeys(orderId: string): Promise<void> {
  await apiRequest('POST', `/api/my-orders/${encodeURIComponent(orderId)}/delivery-email`);
}

export const useResendKeys = (orderId: string) => useMutation({ mutationFn: () => resendKeys(orderId) });
