import type { OrderItemView, OrderView } from '@licensestore/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '@/lib/api';

export const orderQueryKey = (orderId: string) => ['/api/orders', orderId] as const;
export const orderItemsQueryKey = (orderId: string) => ['/api/orders', orderId, 'items'] as const;

export const orderQueryOptions = (orderId: string) =>
  queryOptions({
    queryKey: orderQueryKey(orderId),
    queryFn: () => getJson<OrderView>(`/api/orders/${encodeURIComponent(orderId)}`, { on401: 'throw' }),
  });

export const orderItemsQueryOptions = (orderId: string) =>
  queryOptions({
    queryKey: orderItemsQueryKey(orderId),
    queryFn: () =>
      getJson<OrderItemView[]>(`/api/orders/${encodeURIComponent(orderId)}/items`, { on401: 'throw' }),
  });

export const useOrder = (orderId: string, enabled = true) =>
  useQuery({ ...orderQueryOptions(orderId), enabled });
export const useOrderItems = (orderId: string, enabled = true) =>
  useQuery({ ...orderItemsQueryOptions(orderId), enabled });
