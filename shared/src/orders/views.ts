/**
 * Orders as the API answers with them (spec section 3) and the web client reads them: amounts are decimal strings,
 * times ISO 8601. Types only, so the storefront imports them without pulling the deciders into its bundle.
 */
export interface OrderView {
  id: string;
  customerName: string;
  customerEmail: string;
  total: string;
  status: string;
  createdAt: string;
}

/** One line of an order; `price` is the unit price, `licenseKey` the first key (null until delivered). */
export interface OrderItemView {
  id: string;
  productName: string;
  quantity: number;
  price: string;
  licenseKey: string | null;
  /** One per unit delivered so far. */
  licenseKeys: string[];
}

/** An order with its lines (GET /api/my-orders, the order page's pushed snapshots). */
export interface OrderWithItemsView extends OrderView {
  items: OrderItemView[];
}
