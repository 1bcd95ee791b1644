import type { OrderView } from '@licensestore/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '@/lib/api';

/** GET /api/admin/dashboard: counters a projector keeps, so no request counts over whole tables. */
export interface Dashboard {
  totalProducts: number;
  featuredProducts: number;
  totalOrders: number;
  completedOrders: number;
  /** Distinct customer e-mail addresses. */
  totalCustomers: number;
  /** A decimal string ("1234.50"). */
  totalRevenue: string;
  /** The 5 newest orders, newest first. */
  recentOrders: OrderView[];
  availableKeys: number;
  assignedKeys: number;
  /** Paid orders still owed at least one key. */
  ordersAwaitingKeys: number;
  /** Products on sale running out of keys. */
  lowStock: Array<{ productId: string; productName: string; available: number }>;
}

export const dashboardQueryKey = ['/api/admin/dashboard'] as const;

export const dashboardQueryOptions = () =>
  queryOptions({
    queryKey: dashboardQueryKey,
    queryFn: () => getJson<Dashboard>(dashboardQueryKey[0], { on401: 'throw' }),
    // Other admin screens change what it counts without knowing about it: read it again whenever it is shown
    // (the cached figures stay on screen meanwhile).
    refetchOnMount: 'always',
  });

export const useDashboard = () => useQuery(dashboardQueryOptions());
