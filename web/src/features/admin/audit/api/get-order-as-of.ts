import type { OrderAsOfView } from '@licensestore/domain/audit';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '@/lib/api';

export const orderAsOfQueryOptions = (orderId: string, at: string) =>
  queryOptions({
    queryKey: ['/api/audit/orders', orderId, 'as-of', at],
    queryFn: () =>
      getJson<OrderAsOfView>(
        `/api/audit/orders/${encodeURIComponent(orderId)}/as-of?at=${encodeURIComponent(at)}`,
        { on401: 'throw' },
      ),
  });

/** The order as it stood at `at` (an ISO date-time); the past does not change, so each moment is read once. */
export const useOrderAsOf = (orderId: string, at: string) => useQuery(orderAsOfQueryOptions(orderId, at));
