/**
 * Orders as the API answers with them (spec section 3) and the web client reads them: amounts are decimal strings,
 * times ISO 8601. Types only, so the storefront imports them without pulling the deciders into its bundle.
 */
export interface OrderSummaryView {
  id: string;
  customerName: string;
  customerEmail: string;
  total: string;
  status: string;
  createdAt: string;
}

/** The order with where its payment and its delivery e-mail stand (the order routes, the capture's answer). */
export interface OrderView extends OrderSummaryView {
  /**
   * Where the money stands, apart from the status an admin may set: `pending` while PayPal reviews the capture,
   * then `completed` or `denied`; `refunded` after a refund.
   */
  paymentStatus: string;
  /** When the latest delivery e-mail (keys and links) was sent; null until the first one is. */
  deliveryEmailSentAt: string | null;
  /** The receipt's number (`2026-000001`): null until the order is paid and numbered. */
  receiptNumber: string | null;
}

/**
 * One line of an order; `price` is the unit price. Its keys are answered only to a caller with access to the order
 * (the paying browser, the e-mail link, the customer signed in with the order's address, the back office): for
 * anyone else both key fields are absent and `keysWithheld` tells that the line has keys all the same.
 */
export interface OrderItemView {
  id: string;
  productName: string;
  quantity: number;
  price: string;
  /** The first key (null until delivered); absent when withheld. */
  licenseKey?: string | null;
  /** One per unit delivered so far; absent when withheld. */
  licenseKeys?: string[];
  /** The back office's masked view: the id of each key in `licenseKeys`, for its history and its reveal. */
  licenseKeyIds?: string[];
  /** Keys were delivered, but this caller may not read them: they went to the order's e-mail address. */
  keysWithheld?: true;
}

/** An order with its lines (GET /api/my-orders, the order page's pushed snapshots). */
export interface OrderWithItemsView extends OrderView {
  items: OrderItemView[];
}
