import { randomUUID } from 'node:crypto';
import {
  formatCents,
  type LicenseKeyEvent,
  type OrderEvent,
  type OrderLine,
  type OrderStatus,
  orderEventSchemas,
  orderStream,
  type ProductEvent,
  type ProductFields,
  productEventSchemas,
  productStream,
  toCents,
} from '@licensestore/domain';
import type { AppendResult, EventStore, ExpectedRevision } from '@licensestore/domain/events';
import type { DashboardStatsTable, Database } from '@licensestore/platform/db';
import { type Kysely, sql } from 'kysely';
import { metadata, random, seededClock } from './catalogue.js';

type Data<T extends OrderEvent['type']> = Extract<OrderEvent, { type: T }>['data'];

/** An order line priced like the write side does: line total = unit price × quantity, in cents. */
export const orderLine = (
  productName: string,
  quantity: number,
  unitPrice: string,
  productId: string = randomUUID(),
): OrderLine => ({
  lineId: randomUUID(),
  productId,
  productName,
  quantity,
  unitPrice,
  lineTotal: formatCents(toCents(unitPrice) * quantity),
});

/** A valid OrderCaptured (checked against the event's own schema); the total is the sum of the lines. */
export function orderCaptured(options: {
  orderId?: string;
  paypalOrderId?: string;
  name: string;
  email: string;
  lines: OrderLine[];
  /** 'pending' for a capture PayPal still holds; 'processing' (paid) by default. */
  status?: 'pending' | 'processing';
  capturedAt: string;
}): Extract<OrderEvent, { type: 'OrderCaptured' }> {
  const status = options.status ?? 'processing';
  const data: Data<'OrderCaptured'> = {
    orderId: options.orderId ?? randomUUID(),
    paypalOrderId: options.paypalOrderId ?? `PAYPAL-${randomUUID()}`,
    captureId: `CAPTURE-${randomUUID()}`,
    captureStatus: status === 'pending' ? 'PENDING' : 'COMPLETED',
    customer: { name: options.name, email: options.email },
    lines: options.lines,
    total: formatCents(options.lines.reduce((sum, line) => sum + toCents(line.lineTotal), 0)),
    currency: 'USD',
    status,
    capturedAt: options.capturedAt,
  };
  return { type: 'OrderCaptured', data: orderEventSchemas.OrderCaptured.parse(data) };
}

export const paymentCompleted = (orderId: string, at: string): OrderEvent => ({
  type: 'OrderPaymentCompleted',
  data: orderEventSchemas.OrderPaymentCompleted.parse({ orderId, captureId: 'CAPTURE', completedAt: at }),
});

export const paymentDenied = (orderId: string, at: string): OrderEvent => ({
  type: 'OrderPaymentDenied',
  data: orderEventSchemas.OrderPaymentDenied.parse({ orderId, captureId: 'CAPTURE', deniedAt: at }),
});

export const refunded = (orderId: string, at: string): OrderEvent => ({
  type: 'OrderRefunded',
  data: orderEventSchemas.OrderRefunded.parse({ orderId, captureId: 'CAPTURE', refundedAt: at }),
});

export const statusChanged = (
  orderId: string,
  from: OrderStatus,
  to: OrderStatus,
  at: string,
): OrderEvent => ({
  type: 'OrderStatusChanged',
  data: orderEventSchemas.OrderStatusChanged.parse({ orderId, from, to, changedAt: at }),
});

export const productFields = (overrides: Partial<ProductFields> = {}): ProductFields => ({
  name: 'Windows 11 Pro',
  description: 'Genuine license key, delivered by e-mail.',
  imageUrl: '/uploads/products/w11.webp',
  category: 'Windows',
  platform: 'Windows',
  regularPrice: '199.00',
  salePrice: null,
  featured: false,
  inStock: true,
  ...overrides,
});

export const productCreated = (productId: string, fields: ProductFields, at: string): ProductEvent => ({
  type: 'ProductCreated',
  data: productEventSchemas.ProductCreated.parse({ productId, fields, createdAt: at }),
});

export const productUpdated = (
  productId: string,
  changes: Partial<ProductFields>,
  at: string,
): ProductEvent => ({
  type: 'ProductUpdated',
  data: productEventSchemas.ProductUpdated.parse({ productId, changes, updatedAt: at }),
});

export const productDeleted = (productId: string, at: string): ProductEvent => ({
  type: 'ProductDeleted',
  data: productEventSchemas.ProductDeleted.parse({ productId, deletedAt: at }),
});

/** Appends to an order stream through the event store (`any`: these tests are about the read side). */
export const appendOrder = (
  store: EventStore,
  orderId: string,
  ...events: OrderEvent[]
): Promise<AppendResult> =>
  store.append(
    orderStream(orderId),
    events.map((event) => ({ ...event, metadata })),
    'any',
  );

export const appendProduct = (store: EventStore, productId: string, ...events: ProductEvent[]) =>
  store.append(
    productStream(productId),
    events.map((event) => ({ ...event, metadata })),
    'any',
  );

export interface StoreAppend {
  stream: string;
  expected: ExpectedRevision;
  events: Array<OrderEvent | ProductEvent | LicenseKeyEvent>;
}

/**
 * A believable store history, seeded: products created (some featured), featured toggles, deletions; orders of
 * one to three lines from a few customers whose addresses come in varying case and spacing, captured pending or
 * paid; then payments completing or denied, refunds, admin status changes. Append calls in log order, each with
 * the stream's exact expected revision.
 */
export function* storeHistory(options: {
  seed: number;
  products: number;
  orders: number;
}): Generator<StoreAppend> {
  const rnd = random(options.seed);
  const now = seededClock(rnd, '2026-01-01T00:00:00.000Z', 90);
  const revisions = new Map<string, bigint>();
  const append = (stream: string, events: Array<OrderEvent | ProductEvent>): StoreAppend => {
    const revision = revisions.get(stream);
    revisions.set(stream, (revision ?? -1n) + BigInt(events.length));
    return { stream, expected: revision === undefined ? 'no_stream' : revision, events };
  };
  const live = new Map<string, { name: string; price: string; featured: boolean }>();
  const createProduct = () => {
    const id = rnd.uuid();
    const fields = productFields({
      name: `${rnd.pick(['Office', 'Windows', 'Norton', 'Adobe'])} ${rnd.int(1, 9999)}`,
      regularPrice: formatCents(rnd.int(999, 39_999)),
      featured: rnd.next() < 0.3,
    });
    live.set(id, { name: fields.name, price: fields.regularPrice, featured: fields.featured });
    return append(productStream(id), [productCreated(id, fields, now())]);
  };
  const people = ['ada@example.com', 'grace@example.org', 'linus@example.net', 'margaret@example.com'].map(
    (email, index) => ({ email, names: [`Customer ${index}`, `Customer ${index} (new name)`] }),
  );
  const spelling = (email: string) => {
    const roll = rnd.next();
    if (roll < 0.2) return email.toUpperCase();
    if (roll < 0.35) return ` ${email[0]?.toUpperCase()}${email.slice(1)} `;
    return email;
  };
  const orders: { id: string; status: OrderStatus }[] = [];

  for (let i = 0; i < options.products; i++) yield createProduct();
  for (let i = 0; i < options.orders; i++) {
    const roll = rnd.next();
    if (roll < 0.15 && live.size > 0) {
      const id = rnd.pick([...live.keys()]);
      const product = live.get(id) as { featured: boolean };
      if (rnd.next() < 0.25) {
        live.delete(id);
        yield append(productStream(id), [productDeleted(id, now())]);
      } else {
        product.featured = !product.featured;
        yield append(productStream(id), [productUpdated(id, { featured: product.featured }, now())]);
      }
      continue;
    }
    if (roll < 0.2) {
      yield createProduct();
      continue;
    }
    if (roll < 0.45 && orders.length > 0) {
      const order = rnd.pick(orders);
      const at = now();
      let event: OrderEvent;
      if (order.status === 'pending' && rnd.next() < 0.7) {
        event = rnd.next() < 0.6 ? paymentCompleted(order.id, at) : paymentDenied(order.id, at);
        order.status = event.type === 'OrderPaymentCompleted' ? 'processing' : 'cancelled';
      } else if (order.status !== 'refunded' && rnd.next() < 0.2) {
        event = refunded(order.id, at);
        order.status = 'refunded';
      } else {
        const to = rnd.pick(['pending', 'completed', 'cancelled'] as const);
        event = statusChanged(order.id, order.status, to, at);
        order.status = to;
      }
      yield append(orderStream(order.id), [event]);
      continue;
    }
    const products = [...live.entries()];
    if (products.length === 0) {
      yield createProduct();
      continue;
    }
    const person = rnd.pick(people);
    const lines = Array.from({ length: rnd.int(1, 3) }, () => {
      const [productId, product] = rnd.pick(products);
      return orderLine(product.name, rnd.int(1, 3), product.price, productId);
    });
    const status = rnd.next() < 0.3 ? 'pending' : 'processing';
    const id = rnd.uuid();
    orders.push({ id, status });
    yield append(orderStream(id), [
      orderCaptured({
        orderId: id,
        paypalOrderId: `PAYPAL-${rnd.uuid()}`,
        name: rnd.pick(person.names),
        email: spelling(person.email),
        lines,
        status,
        capturedAt: now(),
      }),
    ]);
  }
}

/** Appends a history in order; returns how many events and the position of the last. */
export async function appendHistory(
  store: EventStore,
  history: Iterable<StoreAppend>,
): Promise<{ events: number; position: string }> {
  let events = 0;
  let position = '';
  for (const { stream, expected, events: batch } of history) {
    const appended = await store.append(
      stream,
      batch.map((event) => ({ ...event, metadata })),
      expected,
    );
    events += batch.length;
    position = appended.position;
  }
  return { events, position };
}

/** The tables of the order and license-key read models, each in key order, as Postgres returns them. */
export const ORDER_MODEL_TABLES = {
  orders: 'id',
  order_items: 'id',
  order_refunds: 'id',
  customers: 'email_key',
  customer_orders: 'order_id',
  dashboard_stats: 'id',
  dashboard_products: 'id',
  dashboard_orders: 'id',
  dashboard_customers: 'email_key',
  dashboard_license_keys: 'id',
  license_keys: 'id',
  license_key_stock: 'product_id',
} as const;

export async function readTable(db: Kysely<Database>, table: string, key: string, schema = 'public') {
  const { rows } = await sql<Record<string, unknown>>`
    SELECT * FROM ${sql.table(`${schema}.${table}`)} ORDER BY ${sql.ref(key)}`.execute(db);
  return rows;
}

export async function readOrderModels(db: Kysely<Database>, schema = 'public') {
  const tables: Record<string, Record<string, unknown>[]> = {};
  for (const [table, key] of Object.entries(ORDER_MODEL_TABLES)) {
    tables[table] = await readTable(db, table, key, schema);
  }
  return tables;
}

/**
 * What the back office shows, counted directly from the projected tables (the slow way the dashboard avoids). An
 * order PayPal declined counts for nothing even after a later refund moved its payment status on: `declined` names
 * such orders, which the orders table alone cannot tell.
 */
export async function countedStats(db: Kysely<Database>, declined: readonly string[] = []) {
  const paid = sql`payment_status <> 'denied' AND id <> ALL(${[...declined]}::uuid[])`;
  const { rows } = await sql<Omit<DashboardStatsTable, 'id' | 'updated_at'>>`
    SELECT (SELECT count(*)::int FROM products) AS product_count,
           (SELECT count(*)::int FROM products WHERE featured) AS featured_count,
           (SELECT count(*)::int FROM orders WHERE ${paid}) AS order_count,
           (SELECT count(*)::int FROM orders WHERE status = 'completed' AND ${paid}) AS completed_count,
           (SELECT count(DISTINCT customer_email_key)::int FROM orders WHERE ${paid}) AS customer_count,
           (SELECT coalesce(sum(total - refunded_total), 0)::numeric(12, 2)::text FROM orders
             WHERE status NOT IN ('cancelled', 'refunded') AND ${paid}) AS revenue,
           (SELECT count(*)::int FROM license_keys WHERE status = 'available') AS available_keys,
           (SELECT count(*)::int FROM license_keys WHERE status = 'assigned') AS assigned_keys,
           (SELECT count(*)::int FROM orders WHERE status = 'processing' AND fulfilled_at IS NULL)
             AS orders_awaiting_keys`.execute(db);
  return rows[0];
}

export async function storedStats(db: Kysely<Database>) {
  return db
    .selectFrom('dashboard_stats')
    .select([
      'product_count',
      'featured_count',
      'order_count',
      'completed_count',
      'customer_count',
      sql<string>`revenue::text`.as('revenue'),
      'available_keys',
      'assigned_keys',
      'orders_awaiting_keys',
    ])
    .executeTakeFirst();
}
