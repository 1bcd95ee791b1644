import type { OrderHistoryEntry } from '@licensestore/domain/audit';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '@/lib/api';
import { ORDERS_KEY } from './get-orders';

/** Who caused an event (the event's metadata), with an admin's username when the admin still exists. */
export type TimelineActor = OrderHistoryEntry['actor'];

/**
 * One event of the order's history as GET /api/orders/:id/timeline answers it (the server's type); license keys
 * arrive masked. Its data is read field by field, so it is typed as a record.
 */
export type TimelineEntry = Omit<OrderHistoryEntry, 'data'> & { data: Record<string, unknown> };

export const orderTimelineQueryOptions = (orderId: string) =>
  queryOptions({
    queryKey: [...ORDERS_KEY, orderId, 'timeline'],
    queryFn: () =>
      getJson<TimelineEntry[]>(`/api/orders/${encodeURIComponent(orderId)}/timeline`, { on401: 'throw' }),
  });

export const useOrderTimeline = (orderId: string) => useQuery(orderTimelineQueryOptions(orderId));
