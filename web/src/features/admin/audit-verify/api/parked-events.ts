import type { ParkedEventsView } from '@licensestore/domain/audit';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '@/lib/api';

const PARKED_EVENTS_URL = '/api/audit/parked-events';

// A 401 on a back-office screen means the session ended: an error to show, not an empty answer.
export const parkedEventsQueryOptions = () =>
  queryOptions({
    queryKey: [PARKED_EVENTS_URL],
    queryFn: () => getJson<ParkedEventsView>(PARKED_EVENTS_URL, { on401: 'throw' }),
  });

export const useParkedEvents = () => useQuery(parkedEventsQueryOptions());
