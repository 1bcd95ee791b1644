import type { Database } from '@licensestore/shared/db';
import type { Kysely, Selectable } from 'kysely';
import { isUuid } from '../http/ids.js';

/** An order as the API answers with it (spec section 3): total a decimal string, createdAt ISO 8601. */
export interface OrderView {
  id: string;
  customerName: string;
  customerEmail: string;
  total: string;
  status: string;
  createdAt: string;
}

/** One line of an order; `price` is the unit price. */
export interface StoredOrderItem {
  id: string;
  productName: string;
  quantity: number;
  price: string;
  /** Sealed (key-vault), one per unit delivered so far, in the order they were assigned. */
  sealedKeys: string[];
}

const ORDER_COLUMNS = ['id', 'customer_name', 'customer_email', 'total', 'status', 'created_at'] as const;

const toOrder = (row: Pick<Selectable<Database['orders']>, (typeof ORDER_COLUMNS)[number]>): OrderView => ({
  id: row.id,
  customerName: row.customer_name,
  customerEmail: row.customer_email,
  total: row.total,
  status: row.status,
  createdAt: row.created_at.toISOString(),
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

/** The order's lines in the order they were bought; empty for an unknown order. */
export async function listOrderItems(db: Kysely<Database>, orderId: string): Promise<StoredOrderItem[]> {
  if (!isUuid(orderId)) return [];
  const rows = await db
    .selectFrom('order_items')
    .select(['id', 'product_name', 'quantity', 'price', 'license_keys'])
    .where('order_id', '=', orderId.toLowerCase())
    .orderBy('line_number')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    productName: row.product_name,
    quantity: row.quantity,
    price: row.price,
    sealedKeys: row.license_keys,
  }));
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
