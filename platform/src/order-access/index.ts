import { createHmac, timingSafeEqual } from 'node:crypto';
import { deriveKey } from '../key-vault/index.js';

/**
 * What an access token opens. Each purpose has its own key, so a token made for one never opens another:
 * - `order-cookie`: the `order_access` cookie of the browser that paid for an order (subject: order id);
 * - `order-link-cookie`: the same cookie given for the delivery e-mail's link (subject: order id), so a showing of
 *   the keys can say which door it came through;
 * - `order-link`: the signed link in the delivery e-mail, exchanged for that cookie (subject: order id);
 * - `checkout`: the `checkout_access` cookie of the browser that started a PayPal order (subject: PayPal order id);
 * - `receipt`: the delivery e-mail's link to the order's receipt PDF, which opens that PDF only (subject: order id).
 */
export type AccessPurpose = 'order-cookie' | 'order-link-cookie' | 'order-link' | 'checkout' | 'receipt';

export interface OrderAccess {
  /** The token granting `purpose` on `subject`: the same every time, so a retry gets the same cookie. */
  token(purpose: AccessPurpose, subject: string): string;
  /** Whether `token` is the one for `purpose` on `subject`, compared in constant time; anything else is false. */
  verify(purpose: AccessPurpose, subject: string, token: unknown): boolean;
}

const PURPOSES: readonly AccessPurpose[] = [
  'order-cookie',
  'order-link-cookie',
  'order-link',
  'checkout',
  'receipt',
];

/**
 * Access tokens for orders: HMAC-SHA256 of the subject (base64url, 43 characters) under a key derived from the
 * license-key secret, which every role holds. A token carries no expiry: the cookie's lifetime bounds the
 * browser's, and the e-mail link opens no more than the e-mail itself holds (the keys in clear). Changing the
 * secret revokes every token.
 */
export function createOrderAccess(secret: string): OrderAccess {
  const keys = new Map(PURPOSES.map((purpose) => [purpose, deriveKey(secret, `order access ${purpose}`)]));
  const mac = (purpose: AccessPurpose, subject: string) =>
    createHmac('sha256', keys.get(purpose) as Buffer)
      .update(subject, 'utf8')
      .digest();
  return {
    token: (purpose, subject) => mac(purpose, subject).toString('base64url'),
    verify(purpose, subject, token) {
      if (typeof token !== 'string' || !/^[\w-]{43}$/.test(token)) return false;
      return timingSafeEqual(mac(purpose, subject), Buffer.from(token, 'base64url'));
    },
  };
}
