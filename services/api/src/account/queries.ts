import type { Database } from '@licensestore/shared/db';
import type { Kysely } from 'kysely';
import type { OrderView, StoredOrderItem } from '../orders/queries.js';

/** One of the customer's orders with its lines (keys still sealed). */
export interface CustomerOrder extends OrderView {
  items: StoredOrderItem[];
}

/**
 * How the orders projector keys a customer's orders (`customer_email_key`, indexed): trimmed and lower-cased, so
 * 'Ada@Example.com ' at checkout and 'ada@example.com' signed in are one customer.
 */
const emailKey = (email: string) => email.trim().toLowerCase();

/** The orders placed with this e-mail address, newest first, each with its lines in the order they were bought. */
export async function listCustomerOrders(db: Kysely<Database>, email: string): Promise<CustomerOrder[]> {
  const orders = await db
    .selectFrom('orders')
    .select(['id', 'customer_name', 'customer_email', 'total', 'status', 'created_at'])
    .where('customer_email_key', '=', emailKey(email))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  if (orders.length === 0) return [];

  // One query for the lines of every order, instead of one per order.
  const items = await db
    .selectFrom('order_items')
    .select(['id', 'order_id', 'product_name', 'quantity', 'price', 'license_keys'])
    .where(
      'order_id',
      'in',
      orders.map((order) => order.id),
    )
    .orderBy('order_id')
    .orderBy('line_number')
    .execute();
  const itemsByOrder = new Map<string, typeof items>();
  for (const item of items) {
    const lines = itemsByOrder.get(item.order_id);
    if (lines) lines.push(item);
    else itemsByOrder.set(item.order_id, [item]);
  }

  return orders.map((order) => ({
    id: order.id,
    customerName: order.customer_name,
    customerEmail: order.customer_email,
    total: order.total,
    status: order.status,
    createdAt: order.created_at.toISOString(),
    items: (itemsByOrder.get(order.id) ?? []).map((item) => ({
      id: item.id,
      productName: item.product_name,
      quantity: item.quantity,
      price: item.price,
      sealedKeys: item.license_keys,
    })),
  }));
}
