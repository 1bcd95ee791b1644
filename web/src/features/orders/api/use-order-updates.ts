import { orderSnapshotSchema } from '@licensestore/contract/orders';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { orderItemsQueryKey, orderQueryKey } from './get-order';

/**
 * Keeps the order and its items in the query cache as the server pushes them (GET /api/orders/:orderId/events):
 * keys appear on the page as soon as they are delivered, without polling. EventSource reconnects by itself,
 * and every connection starts with a fresh snapshot, so nothing is missed while it was down.
 */
export function useOrderUpdates(orderId: string, enabled: boolean) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    const source = new EventSource(`/api/orders/${encodeURIComponent(orderId)}/events`);
    source.addEventListener('snapshot', (event) => {
      const { order, items } = orderSnapshotSchema.parse(JSON.parse(event.data));
      queryClient.setQueryData(orderQueryKey(orderId), order);
      queryClient.setQueryData(orderItemsQueryKey(orderId), items);
    });
    return () => source.close();
  }, [orderId, enabled, queryClient]);
}
