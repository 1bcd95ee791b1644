import {
  formatCents,
  type LicenseKeyEvent,
  type OrderEvent,
  type OrderStatus,
  orderStream,
  type ProductEvent,
  productStream,
  toCents,
} from '@licensestore/domain';
import type {
  DashboardCustomersTable,
  DashboardLicenseKeysTable,
  DashboardOrdersTable,
  DashboardProductsTable,
  Database,
} from '@licensestore/platform/db';
import {
  type DashboardOrder,
  type DashboardProduct,
  emailKey,
  foldDashboardKeys,
  foldDashboardOrders,
  foldDashboardProducts,
  inventoryEventTime,
  type KeyStatus,
  keyIdsOf,
  noChange,
  orderEventTime,
  parseLicenseKeyBatch,
  parseOrderBatch,
  parseProductBatch,
  projectorDescriptors,
} from '@licensestore/platform/readmodel';
import { type Kysely, sql, type Transaction } from 'kysely';
import { customerOrderStreams } from '../customers/projector.js';
import { keyStreams } from '../license-keys/projector.js';
import type { Projector } from '../projector.js';
import { tableIn, upsertRows } from '../sql.js';

const NAME = projectorDescriptors.dashboard.name;

const productTime = (event: ProductEvent) =>
  event.type === 'ProductCreated'
    ? event.data.createdAt
    : event.type === 'ProductUpdated'
      ? event.data.updatedAt
      : event.data.deletedAt;

/** The latest of the events' own timestamps: what the counters are as of, whatever the batch boundaries. */
function latest(times: Iterable<string>): string | null {
  let latestAt: string | null = null;
  let latestMs = Number.NEGATIVE_INFINITY;
  for (const at of times) {
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
    SELECT id, status, total::text AS total, refunded::text AS refunded, fulfilled, email_key, declined
      FROM ${tableIn(schema, 'dashboard_orders')} WHERE id = ANY(${ids}::uuid[])`.execute(trx);
  return new Map<string, DashboardOrder>(
    rows.map((row) => [
      row.id,
      {
        status: row.status as OrderStatus,
        totalCents: toCents(row.total),
        refundedCents: toCents(row.refunded),
        fulfilled: row.fulfilled,
        emailKey: row.email_key,
        declined: row.declined,
      },
    ]),
  );
}

async function loadKeys(trx: Transaction<Database>, schema: string, events: readonly LicenseKeyEvent[]) {
  const ids = [...new Set(events.flatMap(keyIdsOf))];
  if (ids.length === 0) return new Map<string, KeyStatus>();
  const { rows } = await sql<DashboardLicenseKeysTable>`
    SELECT id, status FROM ${tableIn(schema, 'dashboard_license_keys')} WHERE id = ANY(${ids}::uuid[])`.execute(
    trx,
  );
  return new Map<string, KeyStatus>(rows.map((row) => [row.id, row.status]));
}

/** How many orders PayPal did not decline each email key has, for the keys the batch's orders belong to. */
async function loadCustomers(
  trx: Transaction<Database>,
  schema: string,
  events: readonly OrderEvent[],
  orders: ReadonlyMap<string, DashboardOrder>,
) {
  const keys = new Set([...orders.values()].map((order) => order.emailKey));
  for (const event of events) {
    if (event.type === 'OrderCaptured') keys.add(emailKey(event.data.customer.email));
  }
  if (keys.size === 0) return new Map<string, number>();
  const { rows } = await sql<DashboardCustomersTable>`
    SELECT email_key, order_count FROM ${tableIn(schema, 'dashboard_customers')}
     WHERE email_key = ANY(${[...keys]}::text[])`.execute(trx);
  return new Map(rows.map((row) => [row.email_key, row.order_count]));
}

/** Writes the touched customers: those left without an order that counts go, the others are upserted. */
async function writeCustomers(
  trx: Transaction<Database>,
  schema: string,
  touched: Set<string>,
  customers: ReadonlyMap<string, number>,
) {
  const gone = [...touched].filter((key) => !customers.has(key));
  if (gone.length > 0) {
    await sql`DELETE FROM ${tableIn(schema, 'dashboard_customers')} WHERE email_key = ANY(${gone}::text[])`.execute(
      trx,
    );
  }
  const rows = [...touched].flatMap((key) => {
    const count = customers.get(key);
    return count === undefined ? [] : [{ email_key: key, order_count: count }];
  });
  await upsertRows(trx, schema, 'dashboard_customers', 'email_key', rows);
}

/** Writes the touched entities of one kind: deletes those gone from `state`, upserts the others as rows. */
async function writeState<T>(
  trx: Transaction<Database>,
  schema: string,
  table: string,
  touched: Set<string>,
  state: ReadonlyMap<string, T>,
  row: (id: string, value: T) => object,
) {
  const gone = [...touched].filter((id) => !state.has(id));
  if (gone.length > 0) {
    await sql`DELETE FROM ${tableIn(schema, table)} WHERE id = ANY(${gone}::uuid[])`.execute(trx);
  }
  const rows = [...touched].flatMap((id) => {
    const value = state.get(id);
    return value === undefined ? [] : [row(id, value)];
  });
  await upsertRows(trx, schema, table, 'id', rows);
}

/**
 * The back-office counters in one row, kept up to date event by event rather than counted on page load:
 * live products and how many are featured, orders PayPal did not decline and how many are completed, customers
 * (email keys with such an order), revenue (totals less refunds of orders neither cancelled nor refunded), license keys available and assigned over all
 * products, and orders awaiting keys. To move the counters it keeps a little state of its own: each live
 * product's featured flag, each order's status, total, refunded money, customer, whether it is fulfilled and whether
 * PayPal declined it, each customer key's count of orders not declined, each key's status. The counters move by the difference between what the touched entities count for before and
 * after a batch, so they always equal aggregates over that state, and applying a batch twice moves them once.
 */
export const dashboardProjector: Projector = {
  ...projectorDescriptors.dashboard,
  tables: [
    'dashboard_stats',
    'dashboard_products',
    'dashboard_orders',
    'dashboard_customers',
    'dashboard_license_keys',
  ],
  sources: {
    dashboard_stats: () => 'whole-log',
    dashboard_products: (row) => [{ stream: productStream(String(row.id)) }],
    dashboard_orders: (row) => [{ stream: orderStream(String(row.id)) }],
    dashboard_customers: (row, db) => customerOrderStreams(db, String(row.email_key)),
    dashboard_license_keys: (row, db) => keyStreams(db, String(row.id)),
  },

  async createTables(db: Kysely<Database>, schema: string) {
    await sql`
      CREATE TABLE ${tableIn(schema, 'dashboard_stats')} (
        id                   boolean PRIMARY KEY DEFAULT true CHECK (id),
        product_count        integer NOT NULL,
        featured_count       integer NOT NULL,
        order_count          integer NOT NULL,
        completed_count      integer NOT NULL,
        customer_count       integer NOT NULL,
        revenue              numeric(12, 2) NOT NULL,
        updated_at           timestamptz NOT NULL,
        available_keys       integer NOT NULL,
        assigned_keys        integer NOT NULL,
        orders_awaiting_keys integer NOT NULL
      )`.execute(db);
    await sql`
      CREATE TABLE ${tableIn(schema, 'dashboard_products')} (
        id       uuid PRIMARY KEY,
        featured boolean NOT NULL
      )`.execute(db);
    await sql`
      CREATE TABLE ${tableIn(schema, 'dashboard_orders')} (
        id        uuid PRIMARY KEY,
        status    text NOT NULL,
        total     numeric(12, 2) NOT NULL,
        fulfilled boolean NOT NULL,
        refunded  numeric(12, 2) NOT NULL,
        email_key text NOT NULL,
        declined  boolean NOT NULL
      )`.execute(db);
    await sql`
      CREATE TABLE ${tableIn(schema, 'dashboard_customers')} (
        email_key   text PRIMARY KEY,
        order_count integer NOT NULL
      )`.execute(db);
    await sql`
      CREATE TABLE ${tableIn(schema, 'dashboard_license_keys')} (
        id     uuid PRIMARY KEY,
        status text NOT NULL
      )`.execute(db);
  },

  async apply(trx, events, { schema, log }) {
    const productEvents = parseProductBatch(events, log, NAME);
    const orderEvents = parseOrderBatch(events, log, NAME);
    const keyEvents = parseLicenseKeyBatch(events, log, NAME);
    const asOf = latest([
      ...productEvents.map(productTime),
      ...orderEvents.map(orderEventTime),
      ...keyEvents.map(inventoryEventTime),
    ]);
    if (asOf === null) return;

    const delta = noChange();
    const products = await loadProducts(trx, schema, productEvents);
    const orders = await loadOrders(trx, schema, orderEvents);
    const keys = await loadKeys(trx, schema, keyEvents);
    const touchedProducts = foldDashboardProducts(productEvents, products, delta);
    const customers = await loadCustomers(trx, schema, orderEvents, orders);
    const touchedOrders = foldDashboardOrders(orderEvents, orders, customers, delta);
    const touchedKeys = foldDashboardKeys(keyEvents, keys, delta);

    await writeState(trx, schema, 'dashboard_products', touchedProducts, products, (id, product) => ({
      id,
      featured: product.featured,
    }));
    await writeState(trx, schema, 'dashboard_orders', touchedOrders.orders, orders, (id, order) => ({
      id,
      status: order.status,
      total: formatCents(order.totalCents),
      refunded: formatCents(order.refundedCents),
      fulfilled: order.fulfilled,
      email_key: order.emailKey,
      declined: order.declined,
    }));
    await writeState(trx, schema, 'dashboard_license_keys', touchedKeys, keys, (id, status) => ({
      id,
      status,
    }));
    await writeCustomers(trx, schema, touchedOrders.customers, customers);

    await sql`
      INSERT INTO ${tableIn(schema, 'dashboard_stats')} AS stats
        (id, product_count, featured_count, order_count, completed_count, customer_count, revenue, updated_at,
         available_keys, assigned_keys, orders_awaiting_keys)
      VALUES (true, ${delta.products}, ${delta.featured}, ${delta.orders}, ${delta.completed}, ${delta.customers},
              ${formatCents(delta.revenueCents)}::numeric, ${asOf}::timestamptz, ${delta.availableKeys},
              ${delta.assignedKeys}, ${delta.awaitingKeys})
      ON CONFLICT (id) DO UPDATE SET
        product_count = stats.product_count + excluded.product_count,
        featured_count = stats.featured_count + excluded.featured_count,
        order_count = stats.order_count + excluded.order_count,
        completed_count = stats.completed_count + excluded.completed_count,
        customer_count = stats.customer_count + excluded.customer_count,
        revenue = stats.revenue + excluded.revenue,
        updated_at = greatest(stats.updated_at, excluded.updated_at),
        available_keys = stats.available_keys + excluded.available_keys,
        assigned_keys = stats.assigned_keys + excluded.assigned_keys,
        orders_awaiting_keys = stats.orders_awaiting_keys + excluded.orders_awaiting_keys`.execute(trx);
  },
};
