import type { ReviewStatus } from '../orders/events.js';
import type { OrderSummaryView } from '../orders/views.js';

/** A product with fewer keys available than LOW_STOCK_THRESHOLD. */
export interface LowStockView {
  productId: string;
  productName: string;
  available: number;
}

/**
 * One of the newest orders, with whether PayPal declined its payment (its badge then says so) and where a review by
 * the risk rules stands (null for an order they never held).
 */
export interface DashboardRecentOrderView extends OrderSummaryView {
  paymentDeclined: boolean;
  reviewStatus: ReviewStatus | null;
}

/**
 * GET /api/admin/dashboard: the store's counters and its recent orders. A projector keeps the counters, so no
 * request counts over whole tables. Types only, shared by the API and the back office.
 */
export interface DashboardView {
  totalProducts: number;
  featuredProducts: number;
  totalOrders: number;
  completedOrders: number;
  /** Distinct customer email addresses with an order PayPal did not decline. */
  totalCustomers: number;
  /** Totals of the orders neither cancelled nor refunded, a decimal string ("1234.50"). */
  totalRevenue: string;
  /** The newest orders (5), newest first. */
  recentOrders: DashboardRecentOrderView[];
  availableKeys: number;
  assignedKeys: number;
  /** Paid orders still owed at least one key. */
  ordersAwaitingKeys: number;
  /** Orders the risk rules hold, waiting for an admin to approve or reject them. */
  ordersHeldForReview: number;
  /** Products on sale running out of keys, by name (none when the threshold is 0). */
  lowStock: LowStockView[];
}
