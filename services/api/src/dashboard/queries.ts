import type { Database } from '@licensestore/shared/db';
import type { Kysely } from 'kysely';
import { listOrders, type OrderView } from '../orders/queries.js';

const RECENT_ORDERS = 5;

/** The back-office overview (spec section 2, Dashboard). */
export interface DashboardView {
  totalProducts: number;
  featuredProducts: number;
  totalOrders: number;
  completedOrders: number;
  /** Distinct customer e-mail addresses. */
  totalCustomers: number;
  /** Totals of the orders neither cancelled nor refunded, a decimal string. */
  totalRevenue: string;
  /** The newest orders, newest first. */
  recentOrders: OrderView[];
}

/** The counters the `dashboard` projector keeps (one row; none before the first product or order) and the newest orders. */
export async function dashboardSummary(db: Kysely<Database>): Promise<DashboardView> {
  const stats = await db
    .selectFrom('dashboard_stats')
    .select([
      'product_count',
      'featured_count',
      'order_count',
      'completed_count',
      'customer_count',
      'revenue',
    ])
    .executeTakeFirst();
  return {
    totalProducts: stats?.product_count ?? 0,
    featuredProducts: stats?.featured_count ?? 0,
    totalOrders: stats?.order_count ?? 0,
    completedOrders: stats?.completed_count ?? 0,
    totalCustomers: stats?.customer_count ?? 0,
    totalRevenue: stats?.revenue ?? '0.00',
    recentOrders: await listOrders(db, { limit: RECENT_ORDERS }),
  };
}
