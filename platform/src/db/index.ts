import type { BackOfficeRole } from '@licensestore/domain/back-office';
import { type ColumnType, Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';

export type * from './audit-tables.js';
export { migrateToLatest, migratorFor } from './migrate.js';

// numeric and int8 come back as strings (exact); prices stay decimal strings end to end.

export interface ProductsTable {
  id: string;
  name: string;
  description: string;
  image_url: string;
  category: string;
  platform: string;
  /** The official installer's https URL; null when the product has none. */
  download_url: string | null;
  installation_notes: string | null;
  key_format: string | null;
  regular_price: string;
  sale_price: string | null;
  featured: boolean;
  in_stock: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface TestimonialsTable {
  id: string;
  customer_name: string;
  rating: number;
  comment: string;
  location: string;
  date: string;
}

/** One row per captured order (`orders` projector). */
export interface OrdersTable {
  id: string;
  paypal_order_id: string;
  customer_name: string;
  customer_email: string;
  /** The e-mail trimmed and lower-cased: how orders of one customer are grouped and looked up. */
  customer_email_key: string;
  total: string;
  currency: string;
  status: string;
  /** Where the money stands, whatever status an admin sets: pending (PayPal reviews it), completed, denied, refunded. */
  payment_status: string;
  /** The capture time. */
  created_at: Date;
  updated_at: Date;
  /** When the last unit got its key (OrderFulfilled); null while keys are owed. */
  fulfilled_at: Date | null;
  /** When the latest delivery e-mail was sent (first or resent); null before. */
  delivery_email_sent_at: Date | null;
  /** The receipt's number (`2026-000001`), null until the order is paid and numbered. */
  receipt_number: string | null;
  /** Money PayPal refunded on the order's capture (completed refunds, the store's and PayPal dashboard ones). */
  refunded_total: string;
  /** The starting browser's hashed address (what velocity rules count by); null when unknown. */
  client_hash: string | null;
  /** held, approved or rejected; null for an order the risk rules never held. */
  review_status: string | null;
  /** The risk rules that held it (empty when never held). */
  review_rules: string[];
  /** When it was held; null when never held. */
  held_at: Date | null;
}

/** One row per order line (`orders` projector); `id` is `<orderId>:<lineId>`. */
export interface OrderItemsTable {
  id: string;
  order_id: string;
  line_id: string;
  /** The line's place in the order (0-based), for a stable display order. */
  line_number: number;
  product_id: string;
  product_name: string;
  quantity: number;
  /** Unit price. */
  price: string;
  line_total: string;
  /** The line's keys, sealed (key-vault), in the order they were assigned: at most `quantity`. */
  license_keys: string[];
  /** The ids of those keys, in the same order. */
  license_key_ids: string[];
  /** Units of the line refunded (with a key or still without one). */
  refunded_units: number;
  /** Keys of the line whose unit was refunded. */
  refunded_key_ids: string[];
}

/**
 * One row per refund of an order (`orders` projector): the store's (`refund_id`, also its PayPal-Request-Id) and
 * those made in PayPal's dashboard (`refund_id` null). `id` is the store's refund id, else PayPal's.
 */
export interface OrderRefundsTable {
  id: string;
  order_id: string;
  refund_id: string | null;
  paypal_refund_id: string | null;
  amount: string;
  /** The refunded units, `[{ lineId, keyId }]`; empty for a refund of money only. */
  units: Array<{ lineId: string; keyId: string | null }>;
  reason: string | null;
  /** requested, completed or failed. */
  status: string;
  /** Who asked (the admin's id); null for a refund made in PayPal's dashboard. */
  requested_by: string | null;
  requested_at: Date;
  completed_at: Date | null;
  failed_at: Date | null;
  /** PayPal's issue code and message when it refused. */
  failure_code: string | null;
  failure_message: string | null;
}

/** One row per key in the inventory (`license-keys` projector); a removed key's row is deleted. */
export interface LicenseKeysTable {
  id: string;
  product_id: string;
  /** Sealed (key-vault): opened only for admins and for the holder of the order. */
  key_sealed: string;
  /**
   * HMAC of the canonical key (key-vault): what duplicate checks look up (indexed, not UNIQUE: the inventory
   * refuses duplicates per product stream, and the read model must take every recorded key).
   */
  fingerprint: string;
  /** HMAC of the key's last characters (key-vault `tailHash`), for the back office's search; null for keys added before it was recorded. */
  tail_hash: string | null;
  /** Revoked: sold, then taken back for good (its unit refunded or order cancelled after the key left the store). */
  status: 'available' | 'assigned' | 'revoked';
  /** The order line it is assigned to (or was, when revoked). */
  order_id: string | null;
  line_id: string | null;
  added_at: Date;
  assigned_at: Date | null;
  /** The order it last came back from (its unit refunded before the key left the store); null if never. */
  returned_from: string | null;
}

/** Per product: keys available and assigned, and units of paid orders waiting for one (`license-keys` projector). */
export interface LicenseKeyStockTable {
  product_id: string;
  available: number;
  assigned: number;
  /** Keys taken back for good from refunded or cancelled orders. */
  revoked: number;
  waiting: number;
  updated_at: Date;
}

/** Customers derived from orders, one row per e-mail key (`customers` projector). */
export interface CustomersTable {
  email_key: string;
  /** As given on the latest order. */
  email: string;
  /** As given on the latest order. */
  name: string;
  order_count: number;
  /** Totals less refunds of the customer's orders that are neither cancelled nor refunded. */
  total_spent: string;
  last_order_at: Date;
}

/** Private state of the `customers` projector: what it needs to apply a status change to an order's customer. */
export interface CustomerOrdersTable {
  order_id: string;
  email_key: string;
  total: string;
  refunded: string;
  status: string;
  /** PayPal denied the payment: the order is not the customer's. */
  declined: boolean;
}

/** The back-office counters, one row (`dashboard` projector). */
export interface DashboardStatsTable {
  id: boolean;
  product_count: number;
  featured_count: number;
  order_count: number;
  completed_count: number;
  customer_count: number;
  /** Totals less refunds of the orders that are neither cancelled nor refunded. */
  revenue: string;
  /** License keys available over all products. */
  available_keys: number;
  /** License keys assigned to orders. */
  assigned_keys: number;
  /** Orders in `processing` (paid, keys owed) not yet fulfilled. */
  orders_awaiting_keys: number;
  updated_at: Date;
}

/** Private state of the `dashboard` projector: live products and whether they are featured. */
export interface DashboardProductsTable {
  id: string;
  featured: boolean;
}

/** Private state of the `dashboard` projector: each order's status, total and whether every unit has its key. */
export interface DashboardOrdersTable {
  id: string;
  status: string;
  total: string;
  refunded: string;
  fulfilled: boolean;
  email_key: string;
  /** PayPal denied the payment. */
  declined: boolean;
}

/** Private state of the `dashboard` projector: each customer email key with its orders PayPal did not decline. */
export interface DashboardCustomersTable {
  email_key: string;
  order_count: number;
}

/** Private state of the `dashboard` projector: each license key in the inventory and its status. */
export interface DashboardLicenseKeysTable {
  id: string;
  status: 'available' | 'assigned' | 'revoked';
}

export interface ProjectionCheckpointsTable {
  name: string;
  /** Last applied event-store position; null before the first event. */
  position: string | null;
  /** The projector version that built the tables; a different code version rebuilds them. */
  version: number;
  updated_at: Date;
}

export interface AdminUsersTable {
  id: string;
  username: string;
  /** usernameKey(username): unique, what a sign-in looks up. */
  username_key: string;
  password_hash: string;
  /** 'admin' or 'auditor' (BackOfficeRole); the column defaults to 'admin'. */
  role: ColumnType<BackOfficeRole, BackOfficeRole | undefined, never>;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export interface Database {
  products: ProductsTable;
  testimonials: TestimonialsTable;
  orders: OrdersTable;
  order_items: OrderItemsTable;
  order_refunds: OrderRefundsTable;
  customers: CustomersTable;
  customer_orders: CustomerOrdersTable;
  dashboard_stats: DashboardStatsTable;
  dashboard_products: DashboardProductsTable;
  dashboard_orders: DashboardOrdersTable;
  dashboard_customers: DashboardCustomersTable;
  dashboard_license_keys: DashboardLicenseKeysTable;
  license_keys: LicenseKeysTable;
  license_key_stock: LicenseKeyStockTable;
  projection_checkpoints: ProjectionCheckpointsTable;
  admin_users: AdminUsersTable;
}

export interface DatabaseHandle {
  db: Kysely<Database>;
  pool: pg.Pool;
  close: () => Promise<void>;
}

const dropLostConnection = () => {};

/**
 * A pool that outlives its server closing connections (a restart, a failover, an administrator's terminate): pg
 * reports a connection that dies while idle as an 'error' on the pool, and one that dies while checked out between
 * two queries (a transaction, a held lock or LISTEN session) as an 'error' on that connection; an 'error' nobody
 * listens to ends the process, mid-job. With a listener on both, the query on a dead connection fails and is retried
 * like any failed query, the pool drops the connection, and the next query opens a new one.
 */
export function createPool(url: string, max = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max });
  pool.on('error', dropLostConnection);
  pool.on('connect', (client) => client.on('error', dropLostConnection));
  return pool;
}

/** One pool per process role; kysely for queries, the raw pool for LISTEN/NOTIFY and bulk SQL. */
export function openDatabase(url: string, options: { max?: number } = {}): DatabaseHandle {
  const pool = createPool(url, options.max);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  // Kysely ends the pool only once it has used it; end it here when it never did.
  const close = async () => {
    await db.destroy();
    if (!pool.ended) await pool.end();
  };
  return { db, pool, close };
}
