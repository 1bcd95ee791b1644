import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, isStale } from '@/lib/api';
import { toast } from '@/lib/toast';
import { orderTimelineQueryOptions } from './get-order-timeline';
import { orderQueryOptions } from './get-orders';
import { refuseStaleOrderWrite } from './stale-order';

/**
 * Asks for the delivery e-mail again (202: the workers send it). The request is recorded at once, so the timeline
 * and the order are read again to show it; the e-mail's own "sent" event follows a moment later. `etag` names the
 * order as the page shows it: keys are not sent again on an order refunded or changed since.
 */
export function useResendDeliveryEmail(orderId: string, customerEmail: string, etag: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiRequest('POST', `/api/orders/${encodeURIComponent(orderId)}/delivery-email`, undefined, {
        ifMatch: etag,
      }),
    onSuccess: async () => {
      toast({
        title: 'Delivery email requested',
        description: `The license keys will be sent to ${customerEmail} again.`,
      });
      // The request is an event on the order: the page's version moves with it, or its next change would be refused.
      await Promise.all(
        [orderTimelineQueryOptions(orderId), orderQueryOptions(orderId)].map(({ queryKey }) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      );
    },
    onError: async (error) => {
      if (isStale(error)) {
        await refuseStaleOrderWrite(queryClient, 'Not sent', 'Resend again if you still want to.');
        return;
      }
      toast({ title: 'Error', description: error.message, variant: 'destructive' });
    },
  });
}
