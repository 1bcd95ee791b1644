import type { OrderWithItemsView } from '@licensestore/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '@/lib/api';

/** The URL is the key: a checkout that places an order can invalidate it by this name. */
export const myOrdersQueryKey = ['/api/my-orders'] as const;

/** null when the session has ended since the page learnt who is signed in (a 401). */
export const myOrdersQueryOptions = () =>
  queryOptions({
    queryKey: myOrdersQueryKey,
    queryFn: () => getJson<OrderWithItemsView[]>('/api/my-orders'),
  });

export const useMyOrders = () => useQuery(myOrdersQueryOptions());
