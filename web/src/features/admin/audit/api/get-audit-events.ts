import type { AuditEventPage } from '@licensestore/domain/audit';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '@/lib/api';

/** The filters of the event log as GET /api/audit/events takes them; empty ones are left out. */
export interface EventLogFilters {
  type: string;
  actor: string;
  order: string;
  product: string;
  /** ISO date-times. */
  from: string;
  to: string;
}

export const noFilters: EventLogFilters = { type: '', actor: '', order: '', product: '', from: '', to: '' };

export const PAGE_SIZE = 25;

export const auditEventsQueryOptions = (filters: EventLogFilters, before: string | null) => {
  const query = new URLSearchParams(
    Object.entries({ ...filters, before: before ?? '', limit: String(PAGE_SIZE) }).filter(
      ([, value]) => value,
    ),
  );
  return queryOptions({
    queryKey: ['/api/audit/events', query.toString()],
    queryFn: () => getJson<AuditEventPage>(`/api/audit/events?${query}`, { on401: 'throw' }),
    // The log only grows: a page read again shows what came since, while the last one stays on screen.
    refetchOnMount: 'always',
    placeholderData: keepPreviousData,
  });
};

export const useAuditEvents = (filters: EventLogFilters, before: string | null) =>
  useQuery(auditEventsQueryOptions(filters, before));

/** The same read, as the rows of the table. */
export const useAuditEventRows = (filters: EventLogFilters, before: string | null) =>
  useQuery({ ...auditEventsQueryOptions(filters, before), select: (page) => page.events });
