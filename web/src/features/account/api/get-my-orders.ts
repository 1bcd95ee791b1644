import { type MyOrderView, myOrderSchema } from '@licensestore/contract/orders';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { getJson } from '@/lib/api';

/** The URL is the key: a checkout that places an order can invalidate it by this name. */
export const myOrdersQueryKey = ['/api/my-orders'] as const;

const myOrdersSchema = z.array(myOrderSchema);

/** The orders with their keys and refunds, checked against the contract: a wrong shape is an error, never shown. */
async function fetchMyOrders(): Promise<MyOrderView[] | null> {
  const orders = await getJson<unknown>('/api/my-orders');
  return orders === null ? null : myOrdersSchema.parse(orders);
}

/** null when the session has ended since the page learnt who is signed in (a 401). */
export const myOrdersQueryOptions = () =>
  queryOptions({
    queryKey: myOrdersQueryKey,
    queryFn: fetchMyOrders,
  });

export const useMyOrders = () => useQuery(myOrdersQueryOptions());
