import { useState } from 'react';
import { Card, CardContent } from '@/components/ui/card';
import { LoadError } from '@/components/ui/load-error';
import { DashboardPanels } from '@/features/admin/dashboard/components/dashboard-panels';
import {
  DashboardStats,
  DashboardStatsSkeleton,
} from '@/features/admin/dashboard/components/dashboard-stats';
import { LowStock } from '@/features/admin/dashboard/components/low-stock';
import { RecentOrders } from '@/features/admin/dashboard/components/recent-orders';
import { formatDateTime } from '@/lib/date-time';
import { useDashboardAsOf } from '../api/get-dashboard-as-of';
import { MomentPicker } from './moment-picker';

/** The dashboard's figures as they stood at a chosen moment, folded from the log by the server. */
export function DashboardAsOfScreen() {
  const [at, setAt] = useState(() => new Date().toISOString());
  const { data: dashboard, error, refetch, isFetching } = useDashboardAsOf(at);
  return (
    <div className="flex flex-col gap-6">
      <Card>
        <CardContent className="pt-6">
          <MomentPicker label="Show the figures as they stood at" at={at} onPick={setAt} />
        </CardContent>
      </Card>
      {error ? (
        <LoadError
          title="The figures could not be folded"
          error={error}
          onRetry={() => void refetch()}
          retrying={isFetching}
        />
      ) : !dashboard ? (
        <div aria-busy="true">
          <DashboardStatsSkeleton />
        </div>
      ) : (
        <>
          <p className="text-sm text-muted-foreground" aria-live="polite">
            As of <time dateTime={dashboard.asOf}>{formatDateTime(dashboard.asOf)}</time>: {dashboard.events}{' '}
            {dashboard.events === 1 ? 'event' : 'events'} folded, {dashboard.assignedKeys} license{' '}
            {dashboard.assignedKeys === 1 ? 'key' : 'keys'} assigned.
          </p>
          <DashboardStats dashboard={dashboard} />
          <DashboardPanels>
            <RecentOrders orders={dashboard.recentOrders} />
            <LowStock dashboard={dashboard} />
          </DashboardPanels>
        </>
      )}
    </div>
  );
}
