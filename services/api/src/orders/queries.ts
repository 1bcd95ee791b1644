import type { BuyerOrderMoney, OrderListFilters } from '@licensestore/contract/orders';
import {
  type BackOfficeOrderView,
  customerEmailKey,
  formatCents,
  type OrderKeyStatus,
  type OrderRefundView,
  type OrderView,
  reviewStatusSchema,
  toCents,
} from '@licensestore/domain';
import type { Database } from '@licensestore/platform/db';
import type { Kysely, Selectable } from 'kysely';
import { isUuid } from '../http/ids.js';
import { type Keyset, keysetPage, mapPage, type PageParams } from '../http/paging.js';
import { orderSearch } from './order-search.js';

/** One line of an order; `price` is the unit price. */
export interface StoredOrderItem {
  id: string;
  productName: string;
  quantity: number;
  price: string;
  /** Sealed (key-vault), one per unit delivered so far, in the order they were assigned. */
  sealedKeys: string[];
  /** The inventory's id of each of those keys, in the same order: the row holds both from the same event. */
  keyIds: string[];
  downloadUrl: string | null;
  installationNotes: string | null;
  /** What became of each of those keys. */
  keyStatuses: OrderKeyStatus[];
  refundedUnits: number;
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
  'review_status',
] as const;

type OrderRow = Pick<Selectable<Database['orders']>, (typeof ORDER_COLUMNS)[number]>;

const toOrder = (row: OrderRow): OrderView => ({
  id: row.id,
  customerName: row.customer_name,
  customerEmail: row.customer_email,
  total: row.total,
  status: row.status,
  createdAt: row.created_at.toISOString(),
  paymentStatus: row.payment_status,
  deliveryEmailSentAt: row.delivery_email_sent_at?.toISOString() ?? null,
  receiptNumber: row.receipt_number,
  reviewStatus: reviewStatusSchema.nullable().parse(row.review_status),
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
  // The download comes from the catalogue as it is now (a link the vendor moved is fixed for past orders too).
  const rows = await db
    .selectFrom('order_items')
    .leftJoin('products', 'products.id', 'order_items.product_id')
    .select([
      'order_items.id',
      'order_items.order_id',
      'order_items.product_name',
      'order_items.quantity',
      'order_items.price',
      'order_items.license_keys',
      'order_items.license_key_ids',
      'order_items.refunded_units',
      'order_items.refunded_key_ids',
      'products.download_url',
      'products.installation_notes',
    ])
    .where('order_items.order_id', 'in', ids)
    .orderBy('order_items.order_id')
    .orderBy('order_items.line_number')
    .execute();
  const inventory = await inventoryKeys(
    db,
    rows.flatMap((row) => row.license_key_ids),
  );
  for (const row of rows) {
    const refunded = new Set(row.refunded_key_ids);
    const item: StoredOrderItem = {
      id: row.id,
      productName: row.product_name,
      quantity: row.quantity,
      price: row.price,
      sealedKeys: row.license_keys,
      keyIds: row.license_key_ids,
      downloadUrl: row.download_url,
      installationNotes: row.installation_notes,
      keyStatuses: row.license_keys.map((_, index) =>
        keyStatus(row.order_id, row.license_key_ids[index], refunded, inventory),
      ),
      refundedUnits: row.refunded_units,
    };
    byOrder.set(row.order_id, [...(byOrder.get(row.order_id) ?? []), item]);
  }
  return byOrder;
}

type InventoryKeys = Map<string, { status: string; orderId: string | null }>;

/** Where the inventory has these keys now (a key it no longer lists was returned, then deleted). */
async function inventoryKeys(db: Kysely<Database>, keyIds: string[]): Promise<InventoryKeys> {
  if (keyIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('license_keys')
    .select(['id', 'status', 'order_id'])
    .where('id', 'in', [...new Set(keyIds)])
    .execute();
  return new Map(rows.map((row) => [row.id, { status: row.status, orderId: row.order_id }]));
}

/**
 * What became of an order's key: revoked or returned as the inventory has it once it took the key back, refunded
 * while the unit's refund is recorded but the inventory has not acted yet, else valid.
 */
function keyStatus(
  orderId: string,
  keyId: string | undefined,
  refunded: ReadonlySet<string>,
  inventory: InventoryKeys,
): OrderKeyStatus {
  if (keyId === undefined) return 'valid';
  const held = inventory.get(keyId);
  if (held?.status === 'revoked' && held.orderId === orderId) return 'revoked';
  if ((held && held.orderId !== orderId) || (!held && refunded.has(keyId))) return 'returned';
  return refunded.has(keyId) ? 'refunded' : 'valid';
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

export type OrderSort = 'createdAt' | 'total';

/** The back office's orders list: newest first unless asked otherwise; each sort has its index. */
export const ORDER_KEYSET: Keyset<OrderRow, OrderSort> = {
  sorts: {
    createdAt: { column: 'orders.created_at', type: 'timestamp', of: (row) => row.created_at },
    total: { column: 'orders.total', type: 'decimal', of: (row) => row.total },
  },
  id: { column: 'orders.id', type: 'uuid', of: (row) => row.id },
  defaultSort: 'createdAt',
  defaultDir: 'desc',
};

/** The orders matching the filters, selected as the list shows them (ordering and paging are the caller's). */
export function orderListQuery(db: Kysely<Database>, filters: OrderListFilters) {
  let query = db.selectFrom('orders').select(ORDER_COLUMNS);
  if (filters.status) query = query.where('status', '=', filters.status);
  if (filters.customer) query = query.where('customer_email_key', '=', customerEmailKey(filters.customer));
  if (filters.from) query = query.where('created_at', '>=', filters.from);
  if (filters.to) query = query.where('created_at', '<', filters.to);
  const { q } = filters;
  if (q) query = query.where((eb) => orderSearch(eb, q));
  return query;
}

/** One page of the orders matching the filters. */
export async function pageOrders(
  db: Kysely<Database>,
  filters: OrderListFilters,
  page: PageParams<OrderSort>,
) {
  return mapPage(await keysetPage(orderListQuery(db, filters), ORDER_KEYSET, page), toOrder);
}

/** The order's refunds, oldest first, each unit named by its product. */
export async function listOrderRefunds(db: Kysely<Database>, orderId: string): Promise<OrderRefundView[]> {
  if (!isUuid(orderId)) return [];
  const id = orderId.toLowerCase();
  const [rows, lines] = await Promise.all([
    db
      .selectFrom('order_refunds')
      .selectAll()
      .where('order_id', '=', id)
      .orderBy('requested_at')
      .orderBy('id')
      .execute(),
    db.selectFrom('order_items').select(['line_id', 'product_name']).where('order_id', '=', id).execute(),
  ]);
  const names = new Map(lines.map((line) => [line.line_id, line.product_name]));
  const iso = (date: Date | null) => (date === null ? null : date.toISOString());
  return rows.map((row) => ({
    id: row.id,
    refundId: row.refund_id,
    paypalRefundId: row.paypal_refund_id,
    amount: row.amount,
    units: row.units.map((unit) => ({ ...unit, productName: names.get(unit.lineId) ?? unit.lineId })),
    reason: row.reason,
    status: row.status as OrderRefundView['status'],
    requestedBy: row.requested_by,
    requestedAt: row.requested_at.toISOString(),
    completedAt: iso(row.completed_at),
    failedAt: iso(row.failed_at),
    failureCode: row.failure_code,
    failureMessage: row.failure_message,
  }));
}

/** What went back to the buyer of an order: its completed refunds and the money it kept paid (access aside). */
export type BuyerRefunds = Omit<BuyerOrderMoney, 'hasAccess'>;

/**
 * The completed refunds of each of these orders, oldest first, each unit named by its product, and what each
 * order's buyer paid net of them; in three queries however many orders.
 */
export async function listBuyerRefunds(
  db: Kysely<Database>,
  orderIds: string[],
): Promise<Map<string, BuyerRefunds>> {
  const byOrder = new Map<string, BuyerRefunds>();
  const ids = orderIds.filter(isUuid).map((id) => id.toLowerCase());
  if (ids.length === 0) return byOrder;
  const [orders, refunds, lines] = await Promise.all([
    db.selectFrom('orders').select(['id', 'total', 'refunded_total']).where('id', 'in', ids).execute(),
    db
      .selectFrom('order_refunds')
      .select(['order_id', 'amount', 'units', 'requested_at', 'completed_at'])
      .where('order_id', 'in', ids)
      .where('status', '=', 'completed')
      .orderBy('completed_at')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('order_items')
      .select(['order_id', 'line_id', 'product_name'])
      .where('order_id', 'in', ids)
      .execute(),
  ]);
  const names = new Map(lines.map((line) => [`${line.order_id}/${line.line_id}`, line.product_name]));
  for (const order of orders) {
    const refunded = toCents(order.refunded_total);
    byOrder.set(order.id, {
      refunds: [],
      refundedTotal: formatCents(refunded),
      netTotal: formatCents(toCents(order.total) - refunded),
    });
  }
  for (const refund of refunds) {
    byOrder.get(refund.order_id)?.refunds.push({
      amount: refund.amount,
      completedAt: (refund.completed_at ?? refund.requested_at).toISOString(),
      productNames: refund.units.map(
        (unit) => names.get(`${refund.order_id}/${unit.lineId}`) ?? 'An item of this order',
      ),
    });
  }
  return byOrder;
}

/** What went back to the buyer of this order, from `found` (nothing for an order it has no entry for). */
export const buyerRefundsOf = (
  found: ReadonlyMap<string, BuyerRefunds>,
  order: Pick<OrderView, 'id' | 'total'>,
): BuyerRefunds =>
  found.get(order.id.toLowerCase()) ?? { refunds: [], refundedTotal: '0.00', netTotal: order.total };

/** What went back to the buyer of this order. */
export const findBuyerRefunds = async (db: Kysely<Database>, order: Pick<OrderView, 'id' | 'total'>) =>
  buyerRefundsOf(await listBuyerRefunds(db, [order.id]), order);

/** The order as the back office sees it: with its refunds, the money refunded and what the store keeps. */
export async function findBackOfficeOrder(
  db: Kysely<Database>,
  id: string,
): Promise<BackOfficeOrderView | null> {
  if (!isUuid(id)) return null;
  const orderId = id.toLowerCase();
  const [row, refunds] = await Promise.all([
    db
      .selectFrom('orders')
      .select([...ORDER_COLUMNS, 'refunded_total'])
      .where('id', '=', orderId)
      .executeTakeFirst(),
    listOrderRefunds(db, orderId),
  ]);
  if (!row) return null;
  const order = toOrder(row);
  const refunded = toCents(row.refunded_total);
  return {
    ...order,
    refundedTotal: formatCents(refunded),
    netTotal: formatCents(toCents(order.total) - refunded),
    refunds,
  };
}
