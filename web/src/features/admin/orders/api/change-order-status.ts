import { type AdminStatus, orderViewSchema } from '@licensestore/contract/orders';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, isStale } from '@/lib/api';
import { toast } from '@/lib/toast';
import { ORDER_PAGES_PATH, ORDERS_KEY } from './get-orders';
import { refuseStaleOrderWrite } from './stale-order';

/**
 * Lists that show an order's status or count on it: the orders (and each order's page), the customers (cancelled
 * orders leave their total spent) and the dashboard's counters, with every page of the paged lists.
 */
const AFFECTED = [
  ORDERS_KEY,
  [ORDER_PAGES_PATH],
  ['/api/customers'],
  ['/api/admin/customers'],
  ['/api/admin/dashboard'],
];

export function useChangeOrderStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      orderId,
      status,
      etag = null,
    }: {
      orderId: string;
      status: AdminStatus;
      /** The ETag of the order as the page shows it: a change on an order changed since is refused. */
      etag?: string | null;
    }) => {
      const response = await apiRequest(
        'PATCH',
        `/api/orders/${encodeURIComponent(orderId)}/status`,
        { status },
        { ifMatch: etag },
      );
      return orderViewSchema.parse(await response.json());
    },
    onSuccess: async () => {
      toast({ title: 'Order status updated successfully' });
      await Promise.all(AFFECTED.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    },
    onError: async (error) => {
      if (isStale(error)) {
        await refuseStaleOrderWrite(queryClient, 'Not changed', 'Choose again if you still want to.');
        return;
      }
      toast({ title: 'Error', description: error.message, variant: 'destructive' });
    },
  });
}
