import {
  formatCents,
  type OrderEvent,
  type OrderStatus,
  type ProductEvent,
  parseProductEvent,
  toCents,
} from '@licensestore/shared';
import type { DashboardOrdersTable, DashboardProductsTable, Database } from '@licensestore/shared/db';
import { type RecordedEvent, streamCategory } from '@licensestore/shared/eventstore';
import type { Logger } from '@licensestore/shared/logging';
import { type Kysely, sql, type Transaction } from 'kysely';
import { emailKey, keepsMoney, parseOrderBatch, statusChange } from '../orders/events.js';
import type { Projector } from '../projector.js';
import { tableIn, upsertRows } from '../sql.js';

const NAME = 'dashboard';

/** How much each counter of `dashboard_stats` moves; `revenueCents` in cents. */
export interface StatsDelta {
  products: number;
  featured: number;
  orders: number;
  completed: number;
  customers: number;
  revenueCents: number;
}

const noChange = (): StatsDelta => ({
  products: 0,
  featured: 0,
  orders: 0,
  completed: 0,
  customers: 0,
  revenueCents: 0,
});

/** A live product (deleted and never-created ones are absent). */
interface DashboardProduct {
  featured: boolean;
}

interface DashboardOrder {
  status: OrderStatus;
  totalCents: number;
}

const productCounts = (product: DashboardProduct | undefined) => ({
  products: product ? 1 : 0,
  featured: product?.featured ? 1 : 0,
});

const orderCounts = (order: DashboardOrder | undefined) => ({
  orders: order ? 1 : 0,
  completed: order?.status === 'completed' ? 1 : 0,
  revenueCents: order && keepsMoney(order.status) ? order.totalCents : 0,
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
 * Folds order events in log order onto the stored orders they touch (a capture replaces, a status event
 * changes a known order) and returns how the order counters move, as for products. Customers are counted
 * separately: a new e-mail key is one more customer, whatever happens to its orders.
 */
export function foldDashboardOrders(
  events: Iterable<OrderEvent>,
  orders: Map<string, DashboardOrder>,
  delta: StatsDelta,
): Set<string> {
  const touched = new Set<string>();
  const before = new Map<string, ReturnType<typeof orderCounts>>();
  const remember = (id: string) => {
    if (touched.has(id)) return;
    touched.add(id);
    before.set(id, orderCounts(orders.get(id)));
  };
  for (const event of events) {
    if (event.type === 'OrderCaptured') {
      remember(event.data.orderId);
      orders.set(event.data.orderId, { status: event.data.status, totalCents: toCents(event.data.total) });
      continue;
    }
    const change = statusChange(event);
    const order = change && orders.get(change.orderId);
    if (!change || !order) continue;
    remember(change.orderId);
    order.status = change.status;
  }
  for (const [id, counted] of before) {
    const now = orderCounts(orders.get(id));
    delta.orders += now.orders - counted.orders;
    delta.completed += now.completed - counted.completed;
    delta.revenueCents += now.revenueCents - counted.revenueCents;
  }
  return touched;
}

function parseProductBatch(events: readonly RecordedEvent[], log: Logger): ProductEvent[] {
  const parsed: ProductEvent[] = [];
  for (const event of events) {
    if (streamCategory(event.streamId) !== 'product') continue;
    try {
      const product = parseProductEvent(event.type, event.data);
      if (!product) continue;
      product.data.productId = product.data.productId.toLowerCase();
      parsed.push(product);
    } catch (error) {
      log.warn(
        { projector: NAME, eventId: event.id, type: event.type, position: event.position, err: error },
        'skipping a product event whose data does not parse',
      );
    }
  }
  return parsed;
}

const productTime = (event: ProductEvent) =>
  event.type === 'ProductCreated'
    ? event.data.createdAt
    : event.type === 'ProductUpdated'
      ? event.data.updatedAt
      : event.data.deletedAt;

const orderTime = (event: OrderEvent) =>
  event.type === 'OrderCaptured' ? event.data.capturedAt : statusChange(event)?.at;

/** The latest of the events' own timestamps: what the counters are as of, whatever the batch boundaries. */
function latest(times: Iterable<string | undefined>): string | null {
  let latestAt: string | null = null;
  let latestMs = Number.NEGATIVE_INFINITY;
  for (const at of times) {
    if (at === undefined) continue;
    const ms = Date.parse(at);
    if (ms > latestMs) {
      latestMs = ms;
      latestAt = at;
    }
  }
  return latestAt;
}

async function loadProducts(trx: Transaction<Database>, schema: string, events: readonly ProductEvent[]) {
  const ids = [...new Set(events.map((event) => event.data.productId))];
  if (ids.length === 0) return new Map<string, DashboardProduct>();
  const { rows } = await sql<DashboardProductsTable>`
    SELECT id, featured FROM ${tableIn(schema, 'dashboard_products')} WHERE id = ANY(${ids}::uuid[])`.execute(
    trx,
  );
  return new Map<string, DashboardProduct>(rows.map((row) => [row.id, { featured: row.featured }]));
}

async function loadOrders(trx: Transaction<Database>, schema: string, events: readonly OrderEvent[]) {
  const ids = [...new Set(events.map((event) => event.data.orderId))];
  if (ids.length === 0) return new Map<string, DashboardOrder>();
  const { rows } = await sql<DashboardOrdersTable>`
    SELECT id, status, total::text AS total FROM ${tableIn(schema, 'dashboard_orders')}
     WHERE id = ANY(${ids}::uuid[])`.execute(trx);
  return new Map<string, DashboardOrder>(
    rows.map((row) => [row.id, { status: row.status as OrderStatus, totalCents: toCents(row.total) }]),
  );
}

/** New customers: the e-mail keys not seen before (inserted now), counted by what the insert returns. */
async function addCustomers(trx: Transaction<Database>, schema: string, events: readonly OrderEvent[]) {
  const keys = new Set<string>();
  for (const event of events) {
    if (event.type === 'OrderCaptured') keys.add(emailKey(event.data.customer.email));
  }
  if (keys.size === 0) return 0;
  const { rows } = await sql`
    INSERT INTO ${tableIn(schema, 'dashboard_customers')} (email_key)
    SELECT unnest(${[...keys]}::text[])
    ON CONFLICT (email_key) DO NOTHING
    RETURNING email_key`.execute(trx);
  return rows.length;
}

/**
 * The back-office counters in one row, kept up to date event by event rather than counted on page load:
 * live products and how many are featured, orders and how many are completed, distinct customer e-mail keys,
 * and revenue (totals of orders neither cancelled nor refunded). To move the counters it keeps a little state
 * of its own: each live product's featured flag, each order's status and total, every customer key. The
 * counters move by the difference between what the touched entities count for before and after a batch, so
 * they always equal aggregates over that state, and applying a batch twice moves them once.
 */
export const dashboardProjector: Projector = {
  name: NAME,
  version: 1,
  tables: ['dashboard_stats', 'dashboard_products', 'dashboard_orders', 'dashboard_customers'],

  async createTables(db: Kysely<Database>, schema: string) {
    await sql`
      CREATE TABLE ${tableIn(schema, 'dashboard_stats')} (
        id              boolean PRIMARY KEY DEFAULT true CHECK (id),
        product_count   integer NOT NULL,
        featured_count  integer NOT NULL,
        order_count     integer NOT NULL,
        completed_count integer NOT NULL,
        customer_count  integer NOT NULL,
        revenue         numeric(12, 2) NOT NULL,
        updated_at      timestamptz NOT NULL
      )`.execute(db);
    await sql`
      CREATE TABLE ${tableIn(schema, 'dashboard_products')} (
        id       uuid PRIMARY KEY,
        featured boolean NOT NULL
      )`.execute(db);
    await sql`
      CREATE TABLE ${tableIn(schema, 'dashboard_orders')} (
        id     uuid PRIMARY KEY,
        status text NOT NULL,
        total  numeric(12, 2) NOT NULL
      )`.execute(db);
    await sql`CREATE TABLE ${tableIn(schema, 'dashboard_customers')} (email_key text PRIMARY KEY)`.execute(
      db,
    );
  },

  async apply(trx, events, { schema, log }) {
    const productEvents = parseProductBatch(events, log);
    const orderEvents = parseOrderBatch(events, log, NAME);
    const asOf = latest([...productEvents.map(productTime), ...orderEvents.map(orderTime)]);
    if (asOf === null) return;

    const delta = noChange();
    const products = await loadProducts(trx, schema, productEvents);
    const orders = await loadOrders(trx, schema, orderEvents);
    const touchedProducts = foldDashboardProducts(productEvents, products, delta);
    const touchedOrders = foldDashboardOrders(orderEvents, orders, delta);

    const gone = [...touchedProducts].filter((id) => !products.has(id));
    if (gone.length > 0) {
      await sql`DELETE FROM ${tableIn(schema, 'dashboard_products')} WHERE id = ANY(${gone}::uuid[])`.execute(
        trx,
      );
    }
    await upsertRows(
      trx,
      schema,
      'dashboard_products',
      'id',
      [...touchedProducts].flatMap((id) => {
        const product = products.get(id);
        return product ? [{ id, featured: product.featured }] : [];
      }),
    );
    await upsertRows(
      trx,
      schema,
      'dashboard_orders',
      'id',
      [...touchedOrders].map((id) => {
        const order = orders.get(id) as DashboardOrder;
        return { id, status: order.status, total: formatCents(order.totalCents) };
      }),
    );
    delta.customers = await addCustomers(trx, schema, orderEvents);

    await sql`
      INSERT INTO ${tableIn(schema, 'dashboard_stats')} AS stats
        (id, product_count, featured_count, order_count, completed_count, customer_count, revenue, updated_at)
      VALUES (true, ${delta.products}, ${delta.featured}, ${delta.orders}, ${delta.completed}, ${delta.customers},
              ${formatCents(delta.revenueCents)}::numeric, ${asOf}::timestamptz)
      ON CONFLICT (id) DO UPDATE SET
        product_count = stats.product_count + excluded.product_count,
        featured_count = stats.featured_count + excluded.featured_count,
        order_count = stats.order_count + excluded.order_count,
        completed_count = stats.completed_count + excluded.completed_count,
        customer_count = stats.customer_count + excluded.customer_count,
        revenue = stats.revenue + excluded.revenue,
        updated_at = greatest(stats.updated_at, excluded.updated_at)`.execute(trx);
  },
};
