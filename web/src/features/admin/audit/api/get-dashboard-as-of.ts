import type { DashboardAsOfView } from '@licensestore/domain/audit';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '@/lib/api';

export const dashboardAsOfQueryOptions = (at: string) =>
  queryOptions({
    queryKey: ['/api/audit/dashboard/as-of', at],
    queryFn: () =>
      getJson<DashboardAsOfView>(`/api/audit/dashboard/as-of?at=${encodeURIComponent(at)}`, {
        on401: 'throw',
      }),
  });

/** The dashboard's figures as they stood at `at` (an ISO date-time). */
export const useDashboardAsOf = (at: string) => useQuery(dashboardAsOfQueryOptions(at));
