import { buyerOrderSchema, orderItemsSchema } from '@licensestore/contract/orders';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '@/lib/api';

export const orderQueryKey = (orderId: string) => ['/api/orders', orderId] as const;
export const orderItemsQueryKey = (orderId: string) => ['/api/orders', orderId, 'items'] as const;

/**
 * The order as its page shows it, with the money that went back and whether this visitor has access, checked against
 * the contract: a wrong shape is an error, never shown.
 */
export const orderQueryOptions = (orderId: string) =>
  queryOptions({
    queryKey: orderQueryKey(orderId),
    queryFn: async () =>
      buyerOrderSchema.parse(
        await getJson<unknown>(`/api/orders/${encodeURIComponent(orderId)}`, { on401: 'throw' }),
      ),
  });

/** The order's lines with the keys this visitor may read, checked against the contract. */
export const orderItemsQueryOptions = (orderId: string) =>
  queryOptions({
    queryKey: orderItemsQueryKey(orderId),
    queryFn: async () =>
      orderItemsSchema.parse(
        await getJson<unknown>(`/api/orders/${encodeURIComponent(orderId)}/items`, { on401: 'throw' }),
      ),
  });

export const useOrder = (orderId: string, enabled = true) =>
  useQuery({ ...orderQueryOptions(orderId), enabled });
export const useOrderItems = (orderId: string, enabled = true) =>
  useQuery({ ...orderItemsQueryOptions(orderId), enabled });
