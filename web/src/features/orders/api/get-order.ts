import type { OrderItemView, OrderView } from '@licensestore/shared';
import { type BuyerOrderMoney, buyerOrderMoneySchema } from '@licensestore/shared/buyer-orders';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '@/lib/api';

/** The order as its page shows it: with the money that went back and whether this visitor has access. */
export type BuyerOrder = OrderView & BuyerOrderMoney;

export const orderQueryKey = (orderId: string) => ['/api/orders', orderId] as const;
export const orderItemsQueryKey = (orderId: string) => ['/api/orders', orderId, 'items'] as const;

/** The order as the api answers it, its refunds and access checked against the shared contract. */
export const buyerOrder = (order: OrderView): BuyerOrder => ({
  ...order,
  ...buyerOrderMoneySchema.parse(order),
});

export const orderQueryOptions = (orderId: string) =>
  queryOptions({
    queryKey: orderQueryKey(orderId),
    queryFn: async () =>
      buyerOrder(await getJson<OrderView>(`/api/orders/${encodeURIComponent(orderId)}`, { on401: 'throw' })),
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
