import type { DashboardView } from '@licensestore/domain';
import type { Database } from '@licensestore/platform/db';
import type { Kysely } from 'kysely';
import { listStock } from '../license-keys/queries.js';
import { listOrders } from '../orders/queries.js';

const RECENT_ORDERS = 5;

/**
 * The counters the `dashboard` projector keeps (one row; none before the first product or order), the newest
 * orders, and the products low on keys.
 */
export async function dashboardSummary(
  db: Kysely<Database>,
  lowStockThreshold: number,
): Promise<DashboardView> {
  const [stats, recentOrders, stock, held] = await Promise.all([
    db
      .selectFrom('dashboard_stats')
      .select([
        'product_count',
        'featured_count',
        'order_count',
        'completed_count',
        'customer_count',
        'revenue',
        'available_keys',
        'assigned_keys',
        'orders_awaiting_keys',
      ])
      .executeTakeFirst(),
    listOrders(db, { limit: RECENT_ORDERS }),
    listStock(db, lowStockThreshold),
    // The review queue's index has the held orders; no counter is kept for a queue this short.
    db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('review_status', '=', 'held')
      .executeTakeFirst(),
  ]);
  return {
    totalProducts: stats?.product_count ?? 0,
    featuredProducts: stats?.featured_count ?? 0,
    totalOrders: stats?.order_count ?? 0,
    completedOrders: stats?.completed_count ?? 0,
    totalCustomers: stats?.customer_count ?? 0,
    totalRevenue: stats?.revenue ?? '0.00',
    // The fields of a recent order (id, customer name and email, total, status, date, whether PayPal declined it,
    // its review), as the dashboard as of a past moment folds them from the log.
    recentOrders: recentOrders.map(
      ({ id, customerName, customerEmail, total, status, createdAt, paymentStatus, reviewStatus }) => ({
        id,
        customerName,
        customerEmail,
        total,
        status,
        createdAt,
        paymentDeclined: paymentStatus === 'denied',
        reviewStatus,
      }),
    ),
    availableKeys: stats?.available_keys ?? 0,
    assignedKeys: stats?.assigned_keys ?? 0,
    ordersAwaitingKeys: stats?.orders_awaiting_keys ?? 0,
    ordersHeldForReview: Number(held?.count ?? 0),
    lowStock: stock
      .filter((product) => product.lowStock)
      .map(({ productId, productName, available }) => ({ productId, productName, available })),
  };
}
