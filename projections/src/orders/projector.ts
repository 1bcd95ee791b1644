import {
  formatCents,
  type OrderEvent,
  type OrderStatus,
  orderStream,
  type PaymentState,
  toCents,
} from '@licensestore/domain';
import type { Database, OrderItemsTable, OrdersTable } from '@licensestore/platform/db';
import type { Logger } from '@licensestore/platform/logging';
import {
  emailKey,
  orderEventTime,
  parseOrderBatch,
  paymentAfter,
  projectorDescriptors,
  statusAfter,
  storableText,
} from '@licensestore/platform/readmodel';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Projector } from '../projector.js';
import { isoText, tableIn, trigramIndex, upsertRows } from '../sql.js';
import { applyRefunds, createRefundsTable, refundsReaderIndexes } from './refunds.js';

const NAME = projectorDescriptors.orders.name;

type Timestamps = 'created_at' | 'updated_at' | 'fulfilled_at' | 'delivery_email_sent_at' | 'held_at';

/** An `orders` row as the projector writes it (money as decimal strings, timestamps as ISO text). */
export type OrderRow = Omit<OrdersTable, Timestamps> & {
  created_at: string;
  updated_at: string;
  fulfilled_at: string | null;
  delivery_email_sent_at: string | null;
  held_at: string | null;
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
  payment_status: order.captureStatus === 'PENDING' ? 'pending' : 'completed',
  created_at: order.capturedAt,
  updated_at: order.capturedAt,
  fulfilled_at: null,
  delivery_email_sent_at: null,
  refunded_total: '0.00',
  receipt_number: null,
  client_hash: order.clientHash ?? null,
  review_status: null,
  review_rules: [],
  held_at: null,
});

const itemId = (orderId: string, lineId: string) => `${orderId}:${storableText(lineId)}`;

/** One row per line, without keys yet; a line id given twice keeps the last (an upsert touches a row once). */
const itemRows = (order: OrderCaptured): Map<string, OrderItemRow> => {
  const items = new Map<string, OrderItemRow>();
  order.lines.forEach((line, index) => {
    const id = itemId(order.orderId, line.lineId);
    items.set(id, {
      id,
      order_id: order.orderId,
      line_id: storableText(line.lineId),
      line_number: index,
      product_id: line.productId,
      product_name: storableText(line.productName),
      quantity: line.quantity,
      price: line.unitPrice,
      line_total: line.lineTotal,
      license_keys: [],
      license_key_ids: [],
      refunded_units: 0,
      refunded_key_ids: [],
    });
  });
  return items;
};

/** What a batch leaves of one order: its row, and the items to write. */
export interface FoldedOrder {
  row: OrderRow;
  /** Captured in this batch: `items` are all its lines, replacing whatever was stored. */
  captured: boolean;
  /** Every line when captured, else the stored lines this batch gave keys. */
  items: Map<string, OrderItemRow>;
}

/**
 * Folds a batch per order, in log order, on top of the stored rows it touches, as `evolveOrder` does: a capture
 * replaces the order (and its lines, keys gone); a later event changes a known order and is ignored for an
 * unknown one. Keys are appended to their line in the order they were assigned. A capture whose PayPal order
 * already belongs to another order is skipped (the write side never lets that happen; a read model must not get
 * stuck on it either).
 */
export function foldOrderEvents(
  events: Iterable<OrderEvent>,
  stored: ReadonlyMap<string, OrderRow>,
  storedItems: ReadonlyMap<string, OrderItemRow>,
  log: Logger,
): Map<string, FoldedOrder> {
  const folded = new Map<string, FoldedOrder>();
  const paypalOwners = new Map<string, string>();
  for (const row of stored.values()) paypalOwners.set(row.paypal_order_id, row.id);
  for (const event of events) {
    const { orderId } = event.data;
    if (event.type === 'OrderCaptured') {
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
      folded.set(orderId, { row: capturedRow(event.data), captured: true, items: itemRows(event.data) });
      continue;
    }
    // They change nothing the read model shows (a showing of the keys is custody, not a change to the order).
    if (
      event.type === 'DeliveryEmailResendRequested' ||
      event.type === 'OrderReceiptRequested' ||
      event.type === 'LicenceKeysRevealed' ||
      event.type === 'OrderReviewEmailSent'
    )
      continue;
    let order = folded.get(orderId);
    if (!order) {
      const row = stored.get(orderId);
      if (!row) continue;
      order = { row: { ...row }, captured: false, items: new Map() };
      folded.set(orderId, order);
    }
    const { row } = order;
    row.status = statusAfter(row.status as OrderStatus, event);
    row.payment_status = paymentAfter(row.payment_status as PaymentState, event, {
      total: row.total,
      refundedBefore: row.refunded_total,
    });
    row.updated_at = orderEventTime(event);
    if (event.type === 'OrderFulfilled') row.fulfilled_at = event.data.fulfilledAt;
    else if (event.type === 'DeliveryEmailSent') row.delivery_email_sent_at = event.data.sentAt;
    else if (event.type === 'OrderReceiptIssued') row.receipt_number = storableText(event.data.receiptNumber);
    else if (event.type === 'OrderHeldForReview') {
      row.review_status = 'held';
      row.review_rules = event.data.rules;
      row.held_at = event.data.heldAt;
    } else if (event.type === 'OrderApproved') row.review_status = 'approved';
    else if (event.type === 'OrderRejected') row.review_status = 'rejected';
    else if (event.type === 'OrderLicenceKeysAssigned') {
      // A line the order does not have: evolveOrder files the keys under it, but there is no item to show.
      const item = itemOf(order, storedItems, event.data.lineId);
      if (!item) continue;
      item.license_keys.push(...event.data.keys.map((key) => key.key));
      item.license_key_ids.push(...event.data.keys.map((key) => key.keyId.toLowerCase()));
    } else if (event.type === 'OrderReopened') {
      // The keys it gave up are no longer the customer's: its lines show the keys it is given next, and its page
      // says the e-mail with them is still to be sent.
      row.fulfilled_at = null;
      row.delivery_email_sent_at = null;
      for (const lineId of new Set(event.data.keysGivenUp.map((unit) => unit.lineId))) {
        const item = itemOf(order, storedItems, lineId);
        if (!item) continue;
        item.license_keys = [];
        item.license_key_ids = [];
      }
    } else if (event.type === 'OrderRefundCompleted') {
      row.refunded_total = formatCents(toCents(row.refunded_total) + toCents(event.data.amount));
      for (const unit of event.data.units) {
        const item = itemOf(order, storedItems, unit.lineId);
        if (!item) continue;
        item.refunded_units += 1;
        if (unit.keyId !== null) item.refunded_key_ids.push(unit.keyId.toLowerCase());
      }
    }
  }
  return folded;
}

/** The line of a folded order a later event changes (copied from the stored row once); none for a line it lacks. */
function itemOf(
  order: FoldedOrder,
  storedItems: ReadonlyMap<string, OrderItemRow>,
  lineId: string,
): OrderItemRow | undefined {
  const id = itemId(order.row.id, lineId);
  const folded = order.items.get(id);
  if (folded) return folded;
  const stored = order.captured ? undefined : storedItems.get(id);
  if (!stored) return undefined;
  const item = {
    ...stored,
    license_keys: [...stored.license_keys],
    license_key_ids: [...stored.license_key_ids],
    refunded_key_ids: [...stored.refunded_key_ids],
  };
  order.items.set(id, item);
  return item;
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
           currency, status, payment_status, ${isoText('created_at')} AS created_at, ${isoText('updated_at')} AS updated_at,
           ${isoText('fulfilled_at')} AS fulfilled_at, ${isoText('delivery_email_sent_at')} AS delivery_email_sent_at,
           refunded_total::text AS refunded_total, receipt_number, client_hash, review_status, review_rules,
           ${isoText('held_at')} AS held_at
      FROM ${tableIn(schema, 'orders')}
     WHERE id = ANY(${[...ids]}::uuid[]) OR paypal_order_id = ANY(${[...paypalIds]}::text[])`.execute(trx);
  return new Map(rows.map((row) => [row.id, row]));
}

/** The stored lines a batch gives keys to or refunds units of. */
async function loadItems(
  trx: Transaction<Database>,
  schema: string,
  events: readonly OrderEvent[],
): Promise<Map<string, OrderItemRow>> {
  const ids = new Set<string>();
  for (const event of events) {
    if (event.type === 'OrderLicenceKeysAssigned') ids.add(itemId(event.data.orderId, event.data.lineId));
    if (event.type === 'OrderReopened') {
      for (const unit of event.data.keysGivenUp) ids.add(itemId(event.data.orderId, unit.lineId));
    }
    if (event.type === 'OrderRefundCompleted') {
      for (const unit of event.data.units) ids.add(itemId(event.data.orderId, unit.lineId));
    }
  }
  if (ids.size === 0) return new Map();
  const { rows } = await sql<OrderItemRow>`
    SELECT id, order_id, line_id, line_number, product_id, product_name, quantity, price::text AS price,
           line_total::text AS line_total, license_keys, license_key_ids, refunded_units, refunded_key_ids
      FROM ${tableIn(schema, 'order_items')} WHERE id = ANY(${[...ids]}::text[])`.execute(trx);
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * Orders and their lines with the (sealed) keys each line got, from the order streams; the confirmation page,
 * My Orders and the back office read them.
 */
export const ordersProjector: Projector = {
  ...projectorDescriptors.orders,
  tables: ['orders', 'order_items', 'order_refunds'],
  sources: {
    orders: (row) => [{ stream: orderStream(String(row.id)) }],
    order_items: (row) => [{ stream: orderStream(String(row.order_id)), mentioning: String(row.line_id) }],
    order_refunds: (row) => [{ stream: orderStream(String(row.order_id)), mentioning: String(row.id) }],
  },

  async createTables(db: Kysely<Database>, schema: string) {
    await sql`
      CREATE TABLE ${tableIn(schema, 'orders')} (
        id                     uuid PRIMARY KEY,
        paypal_order_id        text NOT NULL UNIQUE,
        customer_name          text NOT NULL,
        customer_email         text NOT NULL,
        customer_email_key     text NOT NULL,
        total                  numeric(12, 2) NOT NULL,
        currency               text NOT NULL,
        status                 text NOT NULL,
        created_at             timestamptz NOT NULL,
        updated_at             timestamptz NOT NULL,
        fulfilled_at           timestamptz,
        delivery_email_sent_at timestamptz,
        payment_status         text NOT NULL,
        refunded_total         numeric(12, 2) NOT NULL,
        receipt_number         text UNIQUE,
        client_hash            text,
        review_status          text,
        review_rules           text[] NOT NULL,
        held_at                timestamptz
      )`.execute(db);
    // The velocity rules read a client address's latest orders at every checkout.
    await sql`CREATE INDEX orders_client_hash_idx ON ${tableIn(schema, 'orders')} (client_hash, created_at)
                WHERE client_hash IS NOT NULL`.execute(db);
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
        line_total   numeric(12, 2) NOT NULL,
        license_keys text[] NOT NULL,
        license_key_ids  text[] NOT NULL,
        refunded_units   integer NOT NULL,
        refunded_key_ids text[] NOT NULL
      )`.execute(db);
    await sql`CREATE INDEX order_items_order_id_idx ON ${tableIn(schema, 'order_items')} (order_id, line_number)`.execute(
      db,
    );
    await createRefundsTable(db, schema);
  },

  readerIndexes: (schema) => {
    const orders = tableIn(schema, 'orders');
    return [
      sql`CREATE INDEX orders_created_at_idx ON ${orders} (created_at DESC, id DESC)`,
      sql`CREATE INDEX orders_customer_email_key_idx ON ${orders} (customer_email_key)`,
      // The back office's paged list: an index per sort (and per filter with a sort), trigrams for search.
      sql`CREATE INDEX orders_total_idx ON ${orders} (total, id)`,
      sql`CREATE INDEX orders_status_created_at_idx ON ${orders} (status, created_at, id)`,
      sql`CREATE INDEX orders_status_total_idx ON ${orders} (status, total, id)`,
      sql`CREATE INDEX orders_customer_created_at_idx ON ${orders} (customer_email_key, created_at, id)`,
      // The review queue: held orders, longest waiting first.
      sql`CREATE INDEX orders_review_idx ON ${orders} (review_status, held_at, id) WHERE review_status IS NOT NULL`,
      trigramIndex('orders_customer_name_trgm_idx', orders, 'customer_name'),
      trigramIndex('orders_customer_email_trgm_idx', orders, 'customer_email'),
      ...refundsReaderIndexes(schema),
    ];
  },

  async apply(trx, events, { schema, log }) {
    const parsed = parseOrderBatch(events, log, NAME);
    if (parsed.length === 0) return;
    await applyRefunds(trx, schema, events);
    const stored = await loadRows(trx, schema, parsed);
    const storedItems = await loadItems(trx, schema, parsed);
    const folded = foldOrderEvents(parsed, stored, storedItems, log);
    if (folded.size === 0) return;
    const rows: OrderRow[] = [];
    const items: OrderItemRow[] = [];
    const recaptured: string[] = [];
    for (const [id, order] of folded) {
      rows.push(order.row);
      items.push(...order.items.values());
      if (order.captured && stored.has(id)) recaptured.push(id);
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
