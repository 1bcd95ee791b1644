import { useMutation } from '@tanstack/react-query';
import { ApiError, apiRequest } from '@/lib/api';

/**
 * POST /api/my-orders/:orderId/delivery-email: the order's delivery e-mail once more, to the order's address. The
 * store throttles it and refuses cancelled or refunded orders, each with a sentence for the customer.
 */
async function resendKeys(orderId: string): Promise<void> {
  await apiRequest('POST', `/api/my-orders/${encodeURIComponent(orderId)}/delivery-email`);
}

/** The server's sentence, or what text there is (a proxy's page, a network failure). */
export const refusalText = (error: Error): string =>
  error instanceof ApiError ? (error.reason ?? error.body) : error.message;

export const useResendKeys = (orderId: string) => useMutation({ mutationFn: () => resendKeys(orderId) });
