import type { DashboardAsOfView } from '@licensestore/domain/audit';
import type { ProductEvent } from '@licensestore/domain/catalogue';
import type { DashboardRecentOrderView, LowStockView } from '@licensestore/domain/dashboard';
import type { LogEntry } from '@licensestore/domain/events';
import type { LicenseKeyEvent } from '@licensestore/domain/license-keys';
import { formatCents } from '@licensestore/domain/money';
import type { OrderEvent, ReviewStatus } from '@licensestore/domain/orders';
import type { Logger } from '../logging/index.js';
import {
  type DashboardOrder,
  foldDashboardKeys,
  foldDashboardOrders,
  foldDashboardProducts,
  noChange,
  type StatsDelta,
} from './dashboard-fold.js';
import { type KeyStatus, parseLicenseKeyBatch } from './license-key-events.js';
import { parseOrderBatch } from './order-events.js';
import { parseProductBatch } from './product-events.js';
import { readableEvents } from './readable-events.js';

const NAME = 'dashboard-as-of';
const RECENT_ORDERS = 5;

/**
 * The event types the dashboard's figures follow. Everything else (checkouts, e-mails, key requests, the order's
 * copy of its keys) is skipped by name before any parsing, which is where the time of a fold goes.
 */
const COUNTED = new Set([
  'ProductCreated',
  'ProductUpdated',
  'ProductDeleted',
  'OrderCaptured',
  'OrderPaymentCompleted',
  'OrderPaymentDenied',
  'OrderRefunded',
  'OrderStatusChanged',
  'OrderReopened',
  'OrderFulfilled',
  'OrderRefundCompleted',
  'OrderHeldForReview',
  'OrderApproved',
  'OrderRejected',
  'LicenceKeyAdded',
  'LicenceKeyRemoved',
  'LicenceKeysAssigned',
  'LicenceKeyRevoked',
  'LicenceKeyReturned',
]);

type CapturedOrder = Extract<OrderEvent, { type: 'OrderCaptured' }>;

/** Where an order's review stands after each event of a review, as the order's own state has it. */
const REVIEW_AFTER: Partial<Record<OrderEvent['type'], ReviewStatus>> = {
  OrderHeldForReview: 'held',
  OrderApproved: 'approved',
  OrderRejected: 'rejected',
};

/** A fold's state as JSON: what a snapshot stores. */
export interface DashboardFoldState {
  delta: StatsDelta;
  products: Array<[string, { featured: boolean }]>;
  orders: Array<[string, DashboardOrder]>;
  keys: Array<[string, KeyStatus]>;
  /** Each customer's email key and how many of their orders PayPal did not decline. */
  customers: Array<[string, number]>;
  productNames: Array<[string, string]>;
  keyProducts: Array<[string, string]>;
  /** Where each order the risk rules held stands. */
  reviews: Array<[string, ReviewStatus]>;
  recent: CapturedOrder[];
  events: number;
  position: string | null;
  latestRecordedAt: string | null;
}

/**
 * The dashboard fold over a prefix of the log: what the dashboard projector keeps in its tables (folded by its own
 * functions), plus what the view shows beside the counters, and where in the log it stands.
 */
export class DashboardFold {
  delta: StatsDelta = noChange();
  products = new Map<string, { featured: boolean }>();
  orders = new Map<string, DashboardOrder>();
  keys = new Map<string, KeyStatus>();
  customers = new Map<string, number>();
  productNames = new Map<string, string>();
  keyProducts = new Map<string, string>();
  reviews = new Map<string, ReviewStatus>();
  recent: CapturedOrder[] = [];
  /** How many events of the log it has folded, the position of the last, and the latest time among them. */
  events = 0;
  position: string | null = null;
  latestRecordedAt: Date | null = null;

  constructor(private readonly log: Logger) {}

  static restore(state: DashboardFoldState, log: Logger): DashboardFold {
    const fold = new DashboardFold(log);
    fold.delta = state.delta;
    fold.products = new Map(state.products);
    fold.orders = new Map(state.orders);
    fold.keys = new Map(state.keys);
    fold.customers = new Map(state.customers);
    fold.productNames = new Map(state.productNames);
    fold.keyProducts = new Map(state.keyProducts);
    fold.reviews = new Map(state.reviews);
    fold.recent = state.recent;
    fold.events = state.events;
    fold.position = state.position;
    fold.latestRecordedAt = state.latestRecordedAt === null ? null : new Date(state.latestRecordedAt);
    return fold;
  }

  state(): DashboardFoldState {
    return {
      delta: this.delta,
      products: [...this.products],
      orders: [...this.orders],
      keys: [...this.keys],
      customers: [...this.customers],
      productNames: [...this.productNames],
      keyProducts: [...this.keyProducts],
      reviews: [...this.reviews],
      recent: this.recent,
      events: this.events,
      position: this.position,
      latestRecordedAt: this.latestRecordedAt?.toISOString() ?? null,
    };
  }

  /** Folds the next entries of the log, in log order; one that does not read counts but changes nothing. */
  apply(page: readonly LogEntry[]) {
    const last = page.at(-1);
    if (!last) return;
    this.events += page.length;
    this.position = last.position;
    for (const event of page) {
      if (!this.latestRecordedAt || event.createdAt > this.latestRecordedAt)
        this.latestRecordedAt = event.createdAt;
    }
    const counted = readableEvents(page).filter((event) => COUNTED.has(event.type));
    const products = parseProductBatch(counted, this.log, NAME);
    const orders = parseOrderBatch(counted, this.log, NAME);
    const keys = parseLicenseKeyBatch(counted, this.log, NAME);
    // The projector's own folds: the figures of the past follow the rules that made the live ones.
    foldDashboardProducts(products, this.products, this.delta);
    foldDashboardOrders(orders, this.orders, this.customers, this.delta);
    foldDashboardKeys(keys, this.keys, this.delta);
    this.follow(products, orders, keys);
  }

  /** What the view names beside the counters: product names, customers, the newest orders, each key's product. */
  private follow(
    products: readonly ProductEvent[],
    orders: readonly OrderEvent[],
    keys: readonly LicenseKeyEvent[],
  ) {
    for (const event of products) {
      if (event.type === 'ProductCreated')
        this.productNames.set(event.data.productId, event.data.fields.name);
      if (
        event.type === 'ProductUpdated' &&
        event.data.changes.name &&
        this.products.has(event.data.productId)
      )
        this.productNames.set(event.data.productId, event.data.changes.name);
    }
    for (const event of orders) {
      if (event.type === 'OrderCaptured') this.recent = [event, ...this.recent].slice(0, RECENT_ORDERS);
      const review = REVIEW_AFTER[event.type];
      if (review) this.reviews.set(event.data.orderId, review);
    }
    for (const event of keys) {
      if (event.type === 'LicenceKeyAdded') this.keyProducts.set(event.data.keyId, event.data.productId);
    }
  }

  view(asOf: Date, lowStockThreshold: number): DashboardAsOfView {
    const { delta } = this;
    return {
      asOf: asOf.toISOString(),
      events: this.events,
      totalProducts: delta.products,
      featuredProducts: delta.featured,
      totalOrders: delta.orders,
      completedOrders: delta.completed,
      totalCustomers: delta.customers,
      totalRevenue: formatCents(delta.revenueCents),
      recentOrders: this.recent.map(
        ({ data }): DashboardRecentOrderView => ({
          id: data.orderId,
          customerName: data.customer.name,
          customerEmail: data.customer.email,
          total: data.total,
          status: this.orders.get(data.orderId)?.status ?? data.status,
          createdAt: data.capturedAt,
          paymentDeclined: this.orders.get(data.orderId)?.declined ?? false,
          reviewStatus: this.reviews.get(data.orderId) ?? null,
        }),
      ),
      availableKeys: delta.availableKeys,
      assignedKeys: delta.assignedKeys,
      ordersAwaitingKeys: delta.awaitingKeys,
      ordersHeldForReview: [...this.reviews.values()].filter((review) => review === 'held').length,
      lowStock: this.lowStock(lowStockThreshold),
    };
  }

  /** Live products with fewer keys available than the threshold, by name, as the stock screen has them. */
  private lowStock(threshold: number): LowStockView[] {
    const available = new Map<string, number>();
    for (const [keyId, status] of this.keys) {
      const productId = this.keyProducts.get(keyId);
      if (status === 'available' && productId) available.set(productId, (available.get(productId) ?? 0) + 1);
    }
    return [...this.products.keys()]
      .map((productId) => ({
        productId,
        productName: this.productNames.get(productId) ?? productId,
        available: available.get(productId) ?? 0,
      }))
      .filter((product) => product.available < threshold)
      .sort((a, b) => a.productName.localeCompare(b.productName) || a.productId.localeCompare(b.productId));
  }
}
