import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';

/**
 * POST /api/my-orders/:orderId/delivery-email: the order's delivery e-mail once more, to the order's address. The
 * store throttles it and refuses cancelled or refunded orders, each with a sentence for the customer.
 */
async function resendKeys(orderId: string): Promise<void> {
  await apiRequest('POST', `/api/my-orders/${encodeURIComponent(orderId)}/delivery-email`);
}

/** The server's sentence from an apiRequest error ("429: {"error":"…"}"), or the error's own text. */
export function refusalText(error: Error): string {
  const body = error.message.replace(/^\d{3}: /, '');
  try {
    const parsed = JSON.parse(body) as { error?: unknown };
    if (typeof parsed.error === 'string') return parsed.error;
  } catch {
    // Not the store's JSON (a proxy's page, a network failure): its text is all there is.
  }
  return body;
}

export const useResendKeys = (orderId: string) => useMutation({ mutationFn: () => resendKeys(orderId) });
