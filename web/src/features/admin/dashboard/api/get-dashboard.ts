import type { DashboardView } from '@licensestore/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '@/lib/api';

export const dashboardQueryKey = ['/api/admin/dashboard'] as const;

export const dashboardQueryOptions = () =>
  queryOptions({
    queryKey: dashboardQueryKey,
    queryFn: () => getJson<DashboardView>(dashboardQueryKey[0], { on401: 'throw' }),
  });

export const useDashboard = () => useQuery(dashboardQueryOptions());
