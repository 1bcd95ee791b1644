import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '@/lib/api';

/** An order as GET /api/orders/:orderId answers it (spec section 3). */
export interface Order {
  id: string;
  customerName: string;
  customerEmail: string;
  total: string;
  status: string;
  createdAt: string | null;
}

/** One line; `licenseKeys` holds one key per unit delivered so far (`licenseKey` is the first). */
export interface OrderItem {
  id: string;
  productName: string;
  quantity: number;
  price: string;
  licenseKey: string | null;
  licenseKeys: string[];
}

export const orderQueryKey = (orderId: string) => ['/api/orders', orderId] as const;
export const orderItemsQueryKey = (orderId: string) => ['/api/orders', orderId, 'items'] as const;

export const orderQueryOptions = (orderId: string) =>
  queryOptions({
    queryKey: orderQueryKey(orderId),
    queryFn: () => getJson<Order>(`/api/orders/${encodeURIComponent(orderId)}`, { on401: 'throw' }),
  });

export const orderItemsQueryOptions = (orderId: string) =>
  queryOptions({
    queryKey: orderItemsQueryKey(orderId),
    queryFn: () =>
      getJson<OrderItem[]>(`/api/orders/${encodeURIComponent(orderId)}/items`, { on401: 'throw' }),
  });

export const useOrder = (orderId: string) => useQuery(orderQueryOptions(orderId));
export const useOrderItems = (orderId: string) => useQuery(orderItemsQueryOptions(orderId));

/** getJson's errors read "<status>: <body>" (spec section 8). */
export const isNotFound = (error: Error | null) => error?.message.startsWith('404:') ?? false;
