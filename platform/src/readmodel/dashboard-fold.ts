import type { ProductEvent } from '@licensestore/domain/catalogue';
import type { LicenseKeyEvent } from '@licensestore/domain/license-keys';
import { toCents } from '@licensestore/domain/money';
import type { OrderEvent, OrderStatus } from '@licensestore/domain/orders';
import { type KeyStatus, keyIdsOf, keyStatusAfter } from './license-key-events.js';
import { emailKey, keepsMoney, statusAfter } from './order-events.js';

/** How much each counter of `dashboard_stats` moves; `revenueCents` in cents. */
export interface StatsDelta {
  products: number;
  featured: number;
  orders: number;
  completed: number;
  customers: number;
  revenueCents: number;
  availableKeys: number;
  assignedKeys: number;
  awaitingKeys: number;
}

/** A delta that changes nothing: where every fold starts. */
export const noChange = (): StatsDelta => ({
  products: 0,
  featured: 0,
  orders: 0,
  completed: 0,
  customers: 0,
  revenueCents: 0,
  availableKeys: 0,
  assignedKeys: 0,
  awaitingKeys: 0,
});

/** A live product (deleted and never-created ones are absent). */
export interface DashboardProduct {
  featured: boolean;
}

export interface DashboardOrder {
  status: OrderStatus;
  totalCents: number;
  /** Money PayPal refunded on it (completed refunds). */
  refundedCents: number;
  /** Every unit has its key (OrderFulfilled). */
  fulfilled: boolean;
  /** The customer's email key. */
  emailKey: string;
  /** PayPal denied the payment: no money ever came, so it counts as neither an order nor a customer's. */
  declined: boolean;
}

const productCounts = (product: DashboardProduct | undefined) => ({
  products: product ? 1 : 0,
  featured: product?.featured ? 1 : 0,
});

/**
 * An order PayPal declined brought no money, so it counts as no order, completed or not, and keeps no revenue even
 * if an admin sets it going again. Awaiting keys: paid and owed keys, which is what `processing` means (a paid
 * capture or a completed payment puts an order there; fulfilment, a denial, a refund or an admin moves it on), not
 * yet fulfilled.
 */
const orderCounts = (order: DashboardOrder | undefined) => {
  const counted = order !== undefined && !order.declined;
  return {
    orders: counted ? 1 : 0,
    completed: counted && order.status === 'completed' ? 1 : 0,
    revenueCents: counted && keepsMoney(order.status) ? order.totalCents - order.refundedCents : 0,
    awaitingKeys: order?.status === 'processing' && !order.fulfilled ? 1 : 0,
  };
};

const keyCounts = (status: KeyStatus | undefined) => ({
  available: status === 'available' ? 1 : 0,
  assigned: status === 'assigned' ? 1 : 0,
});

/**
 * Folds product events in log order onto the stored products they touch (same rules as the products
 * projector: a creation replaces, edits to a product that is not live are ignored, a deletion removes it) and
 * returns how the product counters move: what the touched products count for now, less what they counted for.
 */
export function foldDashboardProducts(
  events: Iterable<ProductEvent>,
  products: Map<string, DashboardProduct>,
  delta: StatsDelta,
): Set<string> {
  const touched = new Set<string>();
  const before = new Map<string, ReturnType<typeof productCounts>>();
  for (const event of events) {
    const id = event.data.productId;
    if (!touched.has(id)) {
      touched.add(id);
      before.set(id, productCounts(products.get(id)));
    }
    switch (event.type) {
      case 'ProductCreated':
        products.set(id, { featured: event.data.fields.featured });
        break;
      case 'ProductUpdated': {
        const product = products.get(id);
        if (product && event.data.changes.featured !== undefined)
          product.featured = event.data.changes.featured;
        break;
      }
      case 'ProductDeleted':
        products.delete(id);
        break;
    }
  }
  for (const [id, counted] of before) {
    const now = productCounts(products.get(id));
    delta.products += now.products - counted.products;
    delta.featured += now.featured - counted.featured;
  }
  return touched;
}

/**
 * Folds order events in log order onto the stored orders they touch (a capture replaces, a later event changes
 * a known order, as `evolveOrder` does) and returns how the order counters move, as for products. A customer is an
 * email key with at least one order PayPal did not decline: `customers` holds how many such orders each touched key
 * has (absent: none), and the customer counter moves as keys gain their first or lose their last.
 */
export function foldDashboardOrders(
  events: Iterable<OrderEvent>,
  orders: Map<string, DashboardOrder>,
  customers: Map<string, number>,
  delta: StatsDelta,
): { orders: Set<string>; customers: Set<string> } {
  const touched = new Set<string>();
  const before = new Map<string, { counts: ReturnType<typeof orderCounts>; emailKey: string | null }>();
  const remember = (id: string) => {
    if (touched.has(id)) return;
    touched.add(id);
    const order = orders.get(id);
    before.set(id, { counts: orderCounts(order), emailKey: order?.emailKey ?? null });
  };
  for (const event of events) {
    const id = event.data.orderId;
    if (event.type === 'OrderCaptured') {
      remember(id);
      orders.set(id, {
        status: event.data.status,
        totalCents: toCents(event.data.total),
        refundedCents: 0,
        fulfilled: false,
        emailKey: emailKey(event.data.customer.email),
        declined: false,
      });
      continue;
    }
    const order = orders.get(id);
    if (!order) continue;
    const status = statusAfter(order.status, event);
    // A reopened order is owed its keys again, until its next OrderFulfilled.
    const fulfilled = event.type !== 'OrderReopened' && (order.fulfilled || event.type === 'OrderFulfilled');
    const refunded = event.type === 'OrderRefundCompleted' ? toCents(event.data.amount) : 0;
    const declined = order.declined || event.type === 'OrderPaymentDenied';
    if (
      status === order.status &&
      fulfilled === order.fulfilled &&
      refunded === 0 &&
      declined === order.declined
    )
      continue;
    remember(id);
    order.status = status;
    order.fulfilled = fulfilled;
    order.refundedCents += refunded;
    order.declined = declined;
  }
  const customersBefore = new Map<string, number>();
  const move = (key: string, by: number) => {
    const count = customers.get(key) ?? 0;
    if (!customersBefore.has(key)) customersBefore.set(key, count);
    customers.set(key, count + by);
  };
  for (const [id, counted] of before) {
    const order = orders.get(id);
    const now = orderCounts(order);
    delta.orders += now.orders - counted.counts.orders;
    delta.completed += now.completed - counted.counts.completed;
    delta.revenueCents += now.revenueCents - counted.counts.revenueCents;
    delta.awaitingKeys += now.awaitingKeys - counted.counts.awaitingKeys;
    if (counted.emailKey !== null && counted.counts.orders > 0) move(counted.emailKey, -1);
    if (order && now.orders > 0) move(order.emailKey, 1);
  }
  for (const [key, count] of customersBefore) {
    const now = customers.get(key) ?? 0;
    if (now <= 0) customers.delete(key);
    delta.customers += (now > 0 ? 1 : 0) - (count > 0 ? 1 : 0);
  }
  return { orders: touched, customers: new Set(customersBefore.keys()) };
}

/**
 * Folds inventory events in log order onto the stored keys they name (same rules as the license-keys
 * projector) and returns how the key counters move, as for products.
 */
export function foldDashboardKeys(
  events: Iterable<LicenseKeyEvent>,
  keys: Map<string, KeyStatus>,
  delta: StatsDelta,
): Set<string> {
  const before = new Map<string, ReturnType<typeof keyCounts>>();
  for (const event of events) {
    for (const id of keyIdsOf(event)) {
      const status = keys.get(id);
      if (!before.has(id)) before.set(id, keyCounts(status));
      const after = keyStatusAfter(status, event);
      if (after === undefined) keys.delete(id);
      else keys.set(id, after);
    }
  }
  for (const [id, counted] of before) {
    const now = keyCounts(keys.get(id));
    delta.availableKeys += now.available - counted.available;
    delta.assignedKeys += now.assigned - counted.assigned;
  }
  return new Set(before.keys());
}
