import type { DashboardView } from '@licensestore/domain';
import { DollarSign, Package, ShoppingCart, Users } from 'lucide-react';
import { formatPrice } from '@/lib/format';
import { StatCard, StatCardSkeleton } from './stat-card';

// Two abreast even on a phone: four full-width cards would push the recent orders off the first screen.
const GRID = 'grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4';

/** The four headline cards: products, orders, customers and revenue. */
export function DashboardStats({ dashboard }: { dashboard: DashboardView }) {
  return (
    <div className={GRID}>
      <StatCard
        title="Total Products"
        value={String(dashboard.totalProducts)}
        detail={`${dashboard.featuredProducts} featured`}
        icon={Package}
      />
      <StatCard
        title="Total Orders"
        value={String(dashboard.totalOrders)}
        detail={`${dashboard.completedOrders} completed`}
        icon={ShoppingCart}
      />
      <StatCard
        title="Total Customers"
        value={String(dashboard.totalCustomers)}
        detail="Unique customers"
        icon={Users}
      />
      <StatCard
        title="Total Revenue"
        value={formatPrice(dashboard.totalRevenue)}
        detail="All time"
        icon={DollarSign}
      />
    </div>
  );
}

export function DashboardStatsSkeleton() {
  return (
    <div className={GRID}>
      {['products', 'orders', 'customers', 'revenue'].map((card) => (
        <StatCardSkeleton key={card} />
      ))}
    </div>
  );
}
