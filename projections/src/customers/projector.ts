import { formatCents, type OrderEvent, type OrderStatus, orderStream, toCents } from '@licensestore/domain';
import type { CustomerOrdersTable, CustomersTable, Database } from '@licensestore/platform/db';
import {
  emailKey,
  keepsMoney,
  parseOrderBatch,
  projectorDescriptors,
  statusAfter,
  storableText,
} from '@licensestore/platform/readmodel';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Projector, RowSource } from '../projector.js';
import { isoText, tableIn, trigramIndex, upsertRows } from '../sql.js';

const NAME = projectorDescriptors.customers.name;

/** A `customers` row as the projector writes it (money as a decimal string, the timestamp as ISO text). */
export type CustomerRow = Omit<CustomersTable, 'last_order_at'> & { last_order_at: string };
type CustomerOrderRow = CustomerOrdersTable;

interface Customer {
  emailKey: string;
  email: string;
  name: string;
  orderCount: number;
  spentCents: number;
  lastOrderAt: string;
  lastOrderMs: number;
}

interface CustomerOrder {
  emailKey: string;
  totalCents: number;
  /** Money PayPal refunded on it. */
  refundedCents: number;
  status: OrderStatus;
  /** PayPal denied the payment: no money came, so the order is not the customer's. */
  declined: boolean;
}

/** How many orders it is of its customer's: one, unless PayPal declined it. */
const countOf = (order: CustomerOrder) => (order.declined ? 0 : 1);

const spentOn = (order: CustomerOrder) =>
  !order.declined && keepsMoney(order.status) ? order.totalCents - order.refundedCents : 0;

/**
 * Folds a batch in log order onto the stored state it touches (`customers` keyed by e-mail key and the private
 * `customer_orders`), changing both maps in place. Every order PayPal did not decline counts toward `orderCount`
 * (a buyer left without one is no customer); only money the store keeps (not declined, not cancelled, not refunded,
 * less partial refunds) counts toward `spentCents`. Name and email come from the latest order by capture time (a tie goes to the
 * later event) since the customer last had an order that counts.
 */
export function foldCustomerEvents(
  events: Iterable<OrderEvent>,
  customers: Map<string, Customer>,
  orders: Map<string, CustomerOrder>,
): { customers: Set<string>; orders: Set<string> } {
  const touched = { customers: new Set<string>(), orders: new Set<string>() };
  const customer = (key: string) => {
    touched.customers.add(key);
    return customers.get(key);
  };
  for (const event of events) {
    if (event.type === 'OrderCaptured') {
      const { orderId, customer: who, total, status, capturedAt } = event.data;
      const previous = orders.get(orderId);
      if (previous) {
        // The same order captured again (a replayed fact): take back what it added before.
        const before = customer(previous.emailKey);
        if (before) {
          before.orderCount -= countOf(previous);
          before.spentCents -= spentOn(previous);
        }
      }
      const order: CustomerOrder = {
        emailKey: emailKey(who.email),
        totalCents: toCents(total),
        refundedCents: 0,
        status,
        declined: false,
      };
      orders.set(orderId, order);
      touched.orders.add(orderId);
      const capturedMs = Date.parse(capturedAt);
      let current = customer(order.emailKey);
      if (!current || current.orderCount <= 0) {
        current = {
          emailKey: order.emailKey,
          email: storableText(who.email),
          name: storableText(who.name),
          orderCount: 0,
          spentCents: 0,
          lastOrderAt: capturedAt,
          lastOrderMs: capturedMs,
        };
        customers.set(order.emailKey, current);
      }
      current.orderCount += 1;
      current.spentCents += spentOn(order);
      if (capturedMs >= current.lastOrderMs) {
        current.email = storableText(who.email);
        current.name = storableText(who.name);
        current.lastOrderAt = capturedAt;
        current.lastOrderMs = capturedMs;
      }
      continue;
    }
    const order = orders.get(event.data.orderId);
    if (!order) continue;
    const status = statusAfter(order.status, event);
    const refunded = event.type === 'OrderRefundCompleted' ? toCents(event.data.amount) : 0;
    const declined = order.declined || event.type === 'OrderPaymentDenied';
    if (status === order.status && refunded === 0 && declined === order.declined) continue;
    const changed = { ...order, status, refundedCents: order.refundedCents + refunded, declined };
    const current = customer(order.emailKey);
    if (current) {
      current.orderCount += countOf(changed) - countOf(order);
      current.spentCents += spentOn(changed) - spentOn(order);
    }
    orders.set(event.data.orderId, changed);
    touched.orders.add(event.data.orderId);
  }
  return touched;
}

async function loadOrders(
  trx: Transaction<Database>,
  schema: string,
  ids: string[],
): Promise<Map<string, CustomerOrder>> {
  const { rows } = await sql<CustomerOrderRow>`
    SELECT order_id, email_key, total::text AS total, refunded::text AS refunded, status, declined
      FROM ${tableIn(schema, 'customer_orders')} WHERE order_id = ANY(${ids}::uuid[])`.execute(trx);
  return new Map(
    rows.map((row) => [
      row.order_id,
      {
        emailKey: row.email_key,
        totalCents: toCents(row.total),
        refundedCents: toCents(row.refunded),
        status: row.status as OrderStatus,
        declined: row.declined,
      },
    ]),
  );
}

async function loadCustomers(
  trx: Transaction<Database>,
  schema: string,
  keys: string[],
): Promise<Map<string, Customer>> {
  if (keys.length === 0) return new Map();
  const { rows } = await sql<CustomerRow>`
    SELECT email_key, email, name, order_count, total_spent::text AS total_spent,
           ${isoText('last_order_at')} AS last_order_at
      FROM ${tableIn(schema, 'customers')} WHERE email_key = ANY(${keys}::text[])`.execute(trx);
  return new Map(
    rows.map((row) => [
      row.email_key,
      {
        emailKey: row.email_key,
        email: row.email,
        name: row.name,
        orderCount: row.order_count,
        spentCents: toCents(row.total_spent),
        lastOrderAt: row.last_order_at,
        lastOrderMs: Date.parse(row.last_order_at),
      },
    ]),
  );
}

/** The order streams behind a customer's e-mail key, as the live tables know them. */
export async function customerOrderStreams(db: Kysely<Database>, emailKey: string): Promise<RowSource[]> {
  const { rows } = await sql<{ id: string }>`
    SELECT order_id AS id FROM customer_orders WHERE email_key = ${emailKey}
    UNION SELECT id FROM orders WHERE customer_email_key = ${emailKey}`.execute(db);
  return rows.map((row) => ({ stream: orderStream(row.id) }));
}

/**
 * The back office's customers, derived from the orders PayPal did not decline and grouped by email key (trimmed,
 * lower-cased): the name and email of the latest order, how many orders, the money kept from them, and when the
 * latest was placed. Keeps each order's customer, total, status and whether it was declined in `customer_orders`, so a later status change can move the
 * money without reading another projector's tables.
 */
export const customersProjector: Projector = {
  ...projectorDescriptors.customers,
  tables: ['customers', 'customer_orders'],
  sources: {
    customers: (row, db) => customerOrderStreams(db, String(row.email_key)),
    customer_orders: (row) => [{ stream: orderStream(String(row.order_id)) }],
  },

  async createTables(db: Kysely<Database>, schema: string) {
    await sql`
      CREATE TABLE ${tableIn(schema, 'customers')} (
        email_key     text PRIMARY KEY,
        email         text NOT NULL,
        name          text NOT NULL,
        order_count   integer NOT NULL,
        total_spent   numeric(12, 2) NOT NULL,
        last_order_at timestamptz NOT NULL
      )`.execute(db);
    await sql`
      CREATE TABLE ${tableIn(schema, 'customer_orders')} (
        order_id  uuid PRIMARY KEY,
        email_key text NOT NULL,
        total     numeric(12, 2) NOT NULL,
        status    text NOT NULL,
        refunded  numeric(12, 2) NOT NULL,
        declined  boolean NOT NULL
      )`.execute(db);
  },

  readerIndexes: (schema) => {
    const customers = tableIn(schema, 'customers');
    return [
      sql`CREATE INDEX customers_last_order_at_idx ON ${customers} (last_order_at DESC, email_key)`,
      // The back office's paged list: an index per sort, trigrams for search.
      sql`CREATE INDEX customers_last_order_idx ON ${customers} (last_order_at, email_key)`,
      sql`CREATE INDEX customers_total_spent_idx ON ${customers} (total_spent, email_key)`,
      sql`CREATE INDEX customers_name_idx ON ${customers} (name, email_key)`,
      trigramIndex('customers_name_trgm_idx', customers, 'name'),
      trigramIndex('customers_email_trgm_idx', customers, 'email'),
    ];
  },

  async apply(trx, events, { schema, log }) {
    const parsed = parseOrderBatch(events, log, NAME);
    if (parsed.length === 0) return;
    const orders = await loadOrders(trx, schema, [...new Set(parsed.map((event) => event.data.orderId))]);
    const keys = new Set([...orders.values()].map((order) => order.emailKey));
    for (const event of parsed) {
      if (event.type === 'OrderCaptured') keys.add(emailKey(event.data.customer.email));
    }
    const customers = await loadCustomers(trx, schema, [...keys]);
    const touched = foldCustomerEvents(parsed, customers, orders);

    const orderRows: CustomerOrderRow[] = [...touched.orders].map((id) => {
      const order = orders.get(id) as CustomerOrder;
      return {
        order_id: id,
        email_key: order.emailKey,
        total: formatCents(order.totalCents),
        refunded: formatCents(order.refundedCents),
        status: order.status,
        declined: order.declined,
      };
    });
    const customerRows: CustomerRow[] = [];
    const gone: string[] = [];
    for (const key of touched.customers) {
      const customer = customers.get(key);
      if (!customer) continue;
      if (customer.orderCount <= 0) gone.push(key);
      else
        customerRows.push({
          email_key: key,
          email: customer.email,
          name: customer.name,
          order_count: customer.orderCount,
          total_spent: formatCents(customer.spentCents),
          last_order_at: customer.lastOrderAt,
        });
    }
    await upsertRows(trx, schema, 'customer_orders', 'order_id', orderRows);
    if (gone.length > 0) {
      // A buyer whose every order PayPal declined (or whose replayed capture moved to another address) is no customer.
      await sql`DELETE FROM ${tableIn(schema, 'customers')} WHERE email_key = ANY(${gone}::text[])`.execute(
        trx,
      );
    }
    await upsertRows(trx, schema, 'customers', 'email_key', customerRows);
  },
};
