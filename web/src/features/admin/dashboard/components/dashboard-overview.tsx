import { LoadError } from '@/components/ui/load-error';
import { StockMismatchNotice } from '../../stock-mismatches/components/stock-mismatch-notice';
import { useDashboard } from '../api/get-dashboard';
import { DashboardPanels } from './dashboard-panels';
import { DashboardStats, DashboardStatsSkeleton } from './dashboard-stats';
import { LowStock, LowStockSkeleton } from './low-stock';
import { RecentOrders, RecentOrdersSkeleton } from './recent-orders';

/**
 * The figures, recent orders and low stock, from one read of GET /api/admin/dashboard; beneath the figures, any
 * product whose stock is shown wrongly.
 */
export function DashboardOverview() {
  const { data: dashboard, error, refetch, isFetching } = useDashboard();

  if (error) {
    return (
      <LoadError
        title="Could not load the dashboard"
        error={error}
        onRetry={() => void refetch()}
        retrying={isFetching}
      />
    );
  }
  if (!dashboard) {
    return (
      <div aria-busy="true" className="flex flex-col gap-6">
        <DashboardStatsSkeleton />
        <DashboardPanels>
          <RecentOrdersSkeleton />
          <LowStockSkeleton />
        </DashboardPanels>
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-6">
      <DashboardStats dashboard={dashboard} />
      <StockMismatchNotice />
      <DashboardPanels>
        <RecentOrders orders={dashboard.recentOrders} />
        <LowStock dashboard={dashboard} />
      </DashboardPanels>
    </div>
  );
}
