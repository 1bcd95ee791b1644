import { customerEmailKey, type OrderView } from '@licensestore/shared';
import type { OrderAccess } from '@licensestore/shared/order-access';
import type { Request, Response } from 'express';
import { cookieValues, setCapabilityCookie } from '../http/cookies.js';

/** The cookie of a browser that may read one order's keys; its path is that order's routes. */
export const ORDER_ACCESS_COOKIE = 'order_access';
const ORDER_ACCESS_DAYS = 30;

/** How a caller sees an order's licence keys: in clear, masked (auditors), or not at all. */
export type KeyAccess = 'clear' | 'masked' | 'none';

/**
 * A licence key is a capability: in clear only to admins, to the customer signed in with the order's address, and
 * to a browser holding the order's access cookie (the one that paid, or that opened the e-mail's link); auditors
 * see keys masked; whoever merely knows the order id (it shows in logs, lists and URLs) sees none.
 */
export function keyAccess(
  req: Request,
  order: Pick<OrderView, 'id' | 'customerEmail'>,
  access: OrderAccess,
): KeyAccess {
  const session = req.session;
  if (session?.kind === 'admin') return 'clear';
  if (session?.kind === 'auditor') return 'masked';
  if (
    session?.kind === 'customer' &&
    customerEmailKey(session.subjectId) === customerEmailKey(order.customerEmail)
  ) {
    return 'clear';
  }
  const cookies = cookieValues(req.get('cookie'), ORDER_ACCESS_COOKIE);
  return cookies.some((token) => access.verify('order-cookie', order.id, token)) ? 'clear' : 'none';
}

/** Gives the browser of this response the order's access cookie: HttpOnly, same-site only, on that order's routes. */
export function grantOrderAccess(
  res: Response,
  orderId: string,
  { access, secureCookies }: { access: OrderAccess; secureCookies: boolean },
) {
  setCapabilityCookie(
    res,
    {
      name: ORDER_ACCESS_COOKIE,
      token: access.token('order-cookie', orderId),
      path: `/api/orders/${orderId}`,
      maxAgeMs: ORDER_ACCESS_DAYS * 24 * 60 * 60 * 1000,
    },
    secureCookies,
  );
}

/**
 * The address as a caller without access sees it: enough for its owner to know where the keys went
 * (`p•••@example.com`), too little to learn who bought what from an order id.
 */
export function maskedEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '•••';
  const [first] = email.slice(0, at);
  return `${first}•••${email.slice(at)}`;
}

/** The order as this caller may see it: a caller without access gets the address masked. */
export const orderViewFor = (order: OrderView, keys: KeyAccess): OrderView =>
  keys === 'none' ? { ...order, customerEmail: maskedEmail(order.customerEmail) } : order;
