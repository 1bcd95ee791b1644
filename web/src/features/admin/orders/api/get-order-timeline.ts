import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '@/lib/api';
import { ORDERS_KEY } from './get-orders';

/** Who caused an event (the event's metadata). */
export interface TimelineActor {
  type: 'customer' | 'admin' | 'system';
  id: string;
  /** An admin's username, when the admin still exists. */
  name?: string;
}

/** One event of the order's history as GET /api/orders/:id/timeline answers it; licence keys arrive masked. */
export interface TimelineEntry {
  id: string;
  position: string;
  stream: string;
  revision: number;
  type: string;
  recordedAt: string;
  actor: TimelineActor;
  data: Record<string, unknown>;
}

export const orderTimelineQueryOptions = (orderId: string) =>
  queryOptions({
    queryKey: [...ORDERS_KEY, orderId, 'timeline'],
    queryFn: () =>
      getJson<TimelineEntry[]>(`/api/orders/${encodeURIComponent(orderId)}/timeline`, { on401: 'throw' }),
  });

export const useOrderTimeline = (orderId: string) => useQuery(orderTimelineQueryOptions(orderId));
