/**
 * Orders as the API answers with them and the web client reads them: amounts are decimal strings,
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
  /**
   * Where a hold by the risk rules stands: `held` (its keys are set aside, neither shown nor e-mailed), then
   * `approved` or `rejected`; null for an order never held.
   */
  reviewStatus: 'held' | 'approved' | 'rejected' | null;
}

/**
 * What became of a key an order line got: still the customer's (`valid`); its unit refunded, the key on its way
 * back (`refunded`); taken back for good after it left the store (`revoked`); back in stock, never having left it
 * (`returned`).
 */
export type OrderKeyStatus = 'valid' | 'refunded' | 'revoked' | 'returned';

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
  /** The first key still valid (null until delivered, or when none is); absent when withheld. */
  licenseKey?: string | null;
  /** One per unit delivered so far, a key no longer valid masked; absent when withheld. */
  licenseKeys?: string[];
  /** What became of each key of `licenseKeys`, in the same order; absent while every key is valid, or withheld. */
  keyStatuses?: OrderKeyStatus[];
  /** Units of the line refunded; absent while none is. */
  refundedUnits?: number;
  /** The back office's masked view: the id of each key in `licenseKeys`, for its history and its reveal. */
  licenseKeyIds?: string[];
  /** Keys were delivered, but this caller may not read them: they went to the order's e-mail address. */
  keysWithheld?: true;
  /** The product's official installer link as the catalogue gives it now; null when it has none (or is gone). */
  downloadUrl: string | null;
  installationNotes: string | null;
}

/** A unit an admin may refund: its key masked, and whether the key left the store (refunding it revokes it). */
export interface RefundableUnitView {
  lineId: string;
  keyId: string | null;
  productName: string;
  unitPrice: string;
  maskedKey: string | null;
  leftStore: boolean;
}

/** A refund of an order as the back office sees it. */
export interface OrderRefundView {
  id: string;
  /** The store's refund id (its PayPal-Request-Id); null for a refund made in PayPal's dashboard. */
  refundId: string | null;
  paypalRefundId: string | null;
  amount: string;
  /** The refunded units (empty: money only), with the product name of each. */
  units: Array<{ lineId: string; keyId: string | null; productName: string }>;
  reason: string | null;
  status: 'requested' | 'completed' | 'failed';
  /** Who asked; null for a refund made in PayPal's dashboard. */
  requestedBy: string | null;
  requestedAt: string;
  completedAt: string | null;
  failedAt: string | null;
  failureCode: string | null;
  failureMessage: string | null;
}

/** The back office's view of an order: its refunds, the money refunded and what the store keeps. */
export interface BackOfficeOrderView extends OrderView {
  refundedTotal: string;
  netTotal: string;
  refunds: OrderRefundView[];
}

/** An order with its lines (GET /api/my-orders, the order page's pushed snapshots). */
export interface OrderWithItemsView extends OrderView {
  items: OrderItemView[];
}
