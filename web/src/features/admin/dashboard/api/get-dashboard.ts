import type { DashboardView } from '@licensestore/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '@/lib/api';

export const dashboardQueryKey = ['/api/admin/dashboard'] as const;

export const dashboardQueryOptions = () =>
  queryOptions({
    queryKey: dashboardQueryKey,
    queryFn: () => getJson<DashboardView>(dashboardQueryKey[0], { on401: 'throw' }),
    // Other admin screens change what it counts without knowing about it: read it again whenever it is shown
    // (the cached figures stay on screen meanwhile).
    refetchOnMount: 'always',
  });

export const useDashboard = () => useQuery(dashboardQueryOptions());
