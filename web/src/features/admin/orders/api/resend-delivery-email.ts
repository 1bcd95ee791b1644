import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { toast } from '@/lib/toast';
import { orderTimelineQueryOptions } from './get-order-timeline';

/**
 * Asks for the delivery e-mail again (202: the workers send it). The request is recorded at once, so the timeline
 * is read again to show it; the e-mail's own "sent" event follows a moment later.
 */
export function useResendDeliveryEmail(orderId: string, customerEmail: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest('POST', `/api/orders/${encodeURIComponent(orderId)}/delivery-email`),
    onSuccess: async () => {
      toast({
        title: 'Delivery email requested',
        description: `The license keys will be sent to ${customerEmail} again.`,
      });
      await queryClient.invalidateQueries({ queryKey: orderTimelineQueryOptions(orderId).queryKey });
    },
    onError: (error) => {
      toast({ title: 'Error', description: error.message, variant: 'destructive' });
    },
  });
}
