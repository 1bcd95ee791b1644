import type { OrderEvent } from '@licensestore/shared';
import type { Database, OrderItemsTable, OrdersTable } from '@licensestore/shared/db';
import type { Logger } from '@licensestore/shared/logging';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Projector } from '../projector.js';
import { isoText, tableIn, upsertRows } from '../sql.js';
import { emailKey, parseOrderBatch, statusChange, storableText } from './events.js';

const NAME = 'orders';

/** An `orders` row as the projector writes it (money as decimal strings, timestamps as ISO text). */
export type OrderRow = Omit<OrdersTable, 'created_at' | 'updated_at'> & {
  created_at: string;
  updated_at: string;
};
export type OrderItemRow = OrderItemsTable;

type OrderCaptured = Extract<OrderEvent, { type: 'OrderCaptured' }>['data'];

const capturedRow = (order: OrderCaptured): OrderRow => ({
  id: order.orderId,
  paypal_order_id: storableText(order.paypalOrderId),
  customer_name: storableText(order.customer.name),
  customer_email: storableText(order.customer.email),
  customer_email_key: emailKey(order.customer.email),
  total: order.total,
  currency: order.currency,
  status: order.status,
  created_at: order.capturedAt,
  updated_at: order.capturedAt,
});

/** One row per line; a line id given twice keeps the last (the upsert may touch a row once per statement). */
const itemRows = (order: OrderCaptured): OrderItemRow[] => {
  const items = new Map<string, OrderItemRow>();
  order.lines.forEach((line, index) => {
    const lineId = storableText(line.lineId);
    const id = `${order.orderId}:${lineId}`;
    items.set(id, {
      id,
      order_id: order.orderId,
      line_id: lineId,
      line_number: index,
      product_id: line.productId,
      product_name: storableText(line.productName),
      quantity: line.quantity,
      price: line.unitPrice,
      line_total: line.lineTotal,
    });
  });
  return [...items.values()];
};

/** What a batch leaves of one order: its row, and its items when the batch captured it. */
export interface FoldedOrder {
  row: OrderRow;
  /** Present when captured in this batch: they replace whatever items were stored. */
  items?: OrderItemRow[];
}

/**
 * Folds a batch per order, in log order, on top of the stored rows it touches. A capture replaces the order;
 * a status event changes a known order and is ignored for an unknown one. A capture whose PayPal order already
 * belongs to another order is skipped (the write side never lets that happen; a read model must not get stuck
 * on it either).
 */
export function foldOrderEvents(
  events: Iterable<OrderEvent>,
  stored: ReadonlyMap<string, OrderRow>,
  log: Logger,
): Map<string, FoldedOrder> {
  const folded = new Map<string, FoldedOrder>();
  const paypalOwners = new Map<string, string>();
  for (const row of stored.values()) paypalOwners.set(row.paypal_order_id, row.id);
  for (const event of events) {
    if (event.type === 'OrderCaptured') {
      const { orderId } = event.data;
      const paypalOrderId = storableText(event.data.paypalOrderId);
      const owner = paypalOwners.get(paypalOrderId);
      if (owner !== undefined && owner !== orderId) {
        log.warn(
          { projector: NAME, orderId, paypalOrderId, owner },
          'skipping a capture whose PayPal order belongs to another order',
        );
        continue;
      }
      paypalOwners.set(paypalOrderId, orderId);
      folded.set(orderId, { row: capturedRow(event.data), items: itemRows(event.data) });
      continue;
    }
    const change = statusChange(event);
    if (!change) continue;
    let order = folded.get(change.orderId);
    if (!order) {
      const row = stored.get(change.orderId);
      if (!row) continue;
      order = { row: { ...row } };
      folded.set(change.orderId, order);
    }
    order.row.status = change.status;
    order.row.updated_at = change.at;
  }
  return folded;
}

/** The stored orders a batch touches: by id, and by PayPal order (to see a capture that would take one twice). */
async function loadRows(
  trx: Transaction<Database>,
  schema: string,
  events: readonly OrderEvent[],
): Promise<Map<string, OrderRow>> {
  const ids = new Set<string>();
  const paypalIds = new Set<string>();
  for (const event of events) {
    ids.add(event.data.orderId);
    if (event.type === 'OrderCaptured') paypalIds.add(storableText(event.data.paypalOrderId));
  }
  const { rows } = await sql<OrderRow>`
    SELECT id, paypal_order_id, customer_name, customer_email, customer_email_key, total::text AS total,
           currency, status, ${isoText('created_at')} AS created_at, ${isoText('updated_at')} AS updated_at
      FROM ${tableIn(schema, 'orders')}
     WHERE id = ANY(${[...ids]}::uuid[]) OR paypal_order_id = ANY(${[...paypalIds]}::text[])`.execute(trx);
  return new Map(rows.map((row) => [row.id, row]));
}

/** Orders and their lines, from the order streams; the confirmation page, My Orders and the back office read them. */
export const ordersProjector: Projector = {
  name: NAME,
  version: 1,
  tables: ['orders', 'order_items'],

  async createTables(db: Kysely<Database>, schema: string) {
    await sql`
      CREATE TABLE ${tableIn(schema, 'orders')} (
        id                 uuid PRIMARY KEY,
        paypal_order_id    text NOT NULL UNIQUE,
        customer_name      text NOT NULL,
        customer_email     text NOT NULL,
        customer_email_key text NOT NULL,
        total              numeric(12, 2) NOT NULL,
        currency           text NOT NULL,
        status             text NOT NULL,
        created_at         timestamptz NOT NULL,
        updated_at         timestamptz NOT NULL
      )`.execute(db);
    await sql`CREATE INDEX orders_created_at_idx ON ${tableIn(schema, 'orders')} (created_at DESC, id DESC)`.execute(
      db,
    );
    await sql`CREATE INDEX orders_customer_email_key_idx ON ${tableIn(schema, 'orders')} (customer_email_key)`.execute(
      db,
    );
    await sql`
      CREATE TABLE ${tableIn(schema, 'order_items')} (
        id           text PRIMARY KEY,
        order_id     uuid NOT NULL,
        line_id      text NOT NULL,
        line_number  integer NOT NULL,
        product_id   uuid NOT NULL,
        product_name text NOT NULL,
        quantity     integer NOT NULL,
        price        numeric(12, 2) NOT NULL,
        line_total   numeric(12, 2) NOT NULL
      )`.execute(db);
    await sql`CREATE INDEX order_items_order_id_idx ON ${tableIn(schema, 'order_items')} (order_id, line_number)`.execute(
      db,
    );
  },

  async apply(trx, events, { schema, log }) {
    const parsed = parseOrderBatch(events, log, NAME);
    if (parsed.length === 0) return;
    const stored = await loadRows(trx, schema, parsed);
    const folded = foldOrderEvents(parsed, stored, log);
    if (folded.size === 0) return;
    const rows: OrderRow[] = [];
    const items: OrderItemRow[] = [];
    const recaptured: string[] = [];
    for (const [id, order] of folded) {
      rows.push(order.row);
      if (order.items) {
        items.push(...order.items);
        if (stored.has(id)) recaptured.push(id);
      }
    }
    await upsertRows(trx, schema, 'orders', 'id', rows);
    if (recaptured.length > 0) {
      // A second capture of a stored order (a replayed fact) replaces its lines: drop the ones it no longer has.
      const kept = items.filter((item) => recaptured.includes(item.order_id)).map((item) => item.id);
      await sql`
        DELETE FROM ${tableIn(schema, 'order_items')}
         WHERE order_id = ANY(${recaptured}::uuid[]) AND NOT (id = ANY(${kept}::text[]))`.execute(trx);
    }
    await upsertRows(trx, schema, 'order_items', 'id', items);
  },
};
