import type { StoreIdentity } from './store-identity.js';

/** Links in customer emails, built from the store's configured origin (PUBLIC_URL), never from a request. */
export interface OrderLinks {
  /** The store's origin, without a trailing slash. */
  publicUrl: string;
  orderId: string;
  /** Opens the order's keys on its page for whoever holds the email. */
  accessToken: string;
  /** Opens the order's receipt PDF (which holds no license key) and nothing else. */
  receiptToken: string;
}

/** What every e-mail about an order starts from: its links, the store it comes from and whom it greets. */
export interface OrderEmailHeading extends OrderLinks {
  customerName: string;
  store: StoreIdentity;
}

/**
 * The order's page, its keys opened by the token. The token rides in the fragment: browsers never send a fragment
 * to a server, so it stays out of access logs and Referer headers; the page hands it to the api itself.
 */
export const orderPageLink = ({ publicUrl, orderId, accessToken }: OrderLinks) =>
  `${publicUrl}/order-confirmation/${encodeURIComponent(orderId)}#access=${encodeURIComponent(accessToken)}`;

/**
 * The order's receipt PDF, as it stands now (refunds included). Its token rides in the query string, since a
 * download link has no page to hand a fragment over; it opens that one PDF, which holds no license key.
 */
export const receiptLink = ({ publicUrl, orderId, receiptToken }: OrderLinks) =>
  `${publicUrl}/api/orders/${encodeURIComponent(orderId)}/receipt.pdf?token=${encodeURIComponent(receiptToken)}`;
