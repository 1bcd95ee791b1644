import type { OrderWithItemsView } from '@licensestore/shared';
import { type BuyerOrderMoney, buyerOrderMoneySchema } from '@licensestore/shared/buyer-orders';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '@/lib/api';

/** One of the customer's orders: its lines, the money that went back and what they paid net. */
export type MyOrder = OrderWithItemsView & BuyerOrderMoney;

/** The URL is the key: a checkout that places an order can invalidate it by this name. */
export const myOrdersQueryKey = ['/api/my-orders'] as const;

/** The orders, each one's refunds checked against the shared contract. */
async function fetchMyOrders(): Promise<MyOrder[] | null> {
  const orders = await getJson<OrderWithItemsView[]>('/api/my-orders');
  if (orders === null) return null;
  return orders.map((order) => ({ ...order, ...buyerOrderMoneySchema.parse(order) }));
}

/** null when the session has ended since the page learnt who is signed in (a 401). */
export const myOrdersQueryOptions = () =>
  queryOptions({
    queryKey: myOrdersQueryKey,
    queryFn: fetchMyOrders,
  });

export const useMyOrders = () => useQuery(myOrdersQueryOptions());
