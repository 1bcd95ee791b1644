import type { BackOfficeOrderView, OrderItemView, OrderView } from '@licensestore/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '@/lib/api';

/**
 * Every order query key starts with '/api/orders' (the spec's default key-to-path rule), so invalidating that
 * prefix refreshes the list, each order, its items and its timeline at once.
 */
export const ORDERS_KEY = ['/api/orders'] as const;

// A 401 on an admin screen means the session ended: an error to show, not an empty answer.
export const ordersQueryOptions = () =>
  queryOptions({
    queryKey: ORDERS_KEY,
    queryFn: () => getJson<OrderView[]>('/api/orders', { on401: 'throw' }),
  });

/** The back office gets an order with its refunds, the money refunded and what the store keeps. */
export const orderQueryOptions = (orderId: string) =>
  queryOptions({
    queryKey: [...ORDERS_KEY, orderId],
    queryFn: () =>
      getJson<BackOfficeOrderView>(`/api/orders/${encodeURIComponent(orderId)}`, { on401: 'throw' }),
  });

export const orderItemsQueryOptions = (orderId: string) =>
  queryOptions({
    queryKey: [...ORDERS_KEY, orderId, 'items'],
    queryFn: () =>
      getJson<OrderItemView[]>(`/api/orders/${encodeURIComponent(orderId)}/items`, { on401: 'throw' }),
  });

export const useOrders = () => useQuery(ordersQueryOptions());
export const useOrder = (orderId: string) => useQuery(orderQueryOptions(orderId));
export const useOrderItems = (orderId: string) => useQuery(orderItemsQueryOptions(orderId));
