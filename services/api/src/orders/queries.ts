import { customerEmailKey, type OrderView } from '@licensestore/shared';
import type { Database } from '@licensestore/shared/db';
import type { Kysely, Selectable } from 'kysely';
import { isUuid } from '../http/ids.js';

/** One line of an order; `price` is the unit price. */
export interface StoredOrderItem {
  id: string;
  productName: string;
  quantity: number;
  price: string;
  /** Sealed (key-vault), one per unit delivered so far, in the order they were assigned. */
  sealedKeys: string[];
}

const ORDER_COLUMNS = [
  'id',
  'customer_name',
  'customer_email',
  'total',
  'status',
  'created_at',
  'payment_status',
  'delivery_email_sent_at',
  'receipt_number',
] as const;

const toOrder = (row: Pick<Selectable<Database['orders']>, (typeof ORDER_COLUMNS)[number]>): OrderView => ({
  id: row.id,
  customerName: row.customer_name,
  customerEmail: row.customer_email,
  total: row.total,
  status: row.status,
  createdAt: row.created_at.toISOString(),
  paymentStatus: row.payment_status,
  deliveryEmailSentAt: row.delivery_email_sent_at?.toISOString() ?? null,
  receiptNumber: row.receipt_number,
});

/** The order, or null when there is none (a malformed id included). */
export async function findOrder(db: Kysely<Database>, id: string): Promise<OrderView | null> {
  if (!isUuid(id)) return null;
  const row = await db
    .selectFrom('orders')
    .select(ORDER_COLUMNS)
    .where('id', '=', id.toLowerCase())
    .executeTakeFirst();
  return row ? toOrder(row) : null;
}

/** The lines of each of these orders in the order they were bought, in one query; absent orders have none. */
export async function listItemsOfOrders(
  db: Kysely<Database>,
  orderIds: string[],
): Promise<Map<string, StoredOrderItem[]>> {
  const byOrder = new Map<string, StoredOrderItem[]>();
  const ids = orderIds.filter(isUuid).map((id) => id.toLowerCase());
  if (ids.length === 0) return byOrder;
  const rows = await db
    .selectFrom('order_items')
    .select(['id', 'order_id', 'product_name', 'quantity', 'price', 'license_keys'])
    .where('order_id', 'in', ids)
    .orderBy('order_id')
    .orderBy('line_number')
    .execute();
  for (const row of rows) {
    const item = {
      id: row.id,
      productName: row.product_name,
      quantity: row.quantity,
      price: row.price,
      sealedKeys: row.license_keys,
    };
    byOrder.set(row.order_id, [...(byOrder.get(row.order_id) ?? []), item]);
  }
  return byOrder;
}

/** The order's lines in the order they were bought; empty for an unknown order. */
export async function listOrderItems(db: Kysely<Database>, orderId: string): Promise<StoredOrderItem[]> {
  return (await listItemsOfOrders(db, [orderId])).get(orderId.toLowerCase()) ?? [];
}

/** The orders placed with this e-mail address (by the indexed customer key), newest first, with their lines. */
export async function listCustomerOrders(
  db: Kysely<Database>,
  email: string,
): Promise<Array<OrderView & { items: StoredOrderItem[] }>> {
  const orders = (
    await db
      .selectFrom('orders')
      .select(ORDER_COLUMNS)
      .where('customer_email_key', '=', customerEmailKey(email))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute()
  ).map(toOrder);
  const items = await listItemsOfOrders(
    db,
    orders.map((order) => order.id),
  );
  return orders.map((order) => ({ ...order, items: items.get(order.id) ?? [] }));
}

/** Orders newest first (all of them, or the first `limit`). */
export async function listOrders(
  db: Kysely<Database>,
  options: { limit?: number } = {},
): Promise<OrderView[]> {
  let query = db
    .selectFrom('orders')
    .select(ORDER_COLUMNS)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc');
  if (options.limit !== undefined) query = query.limit(options.limit);
  return (await query.execute()).map(toOrder);
}
