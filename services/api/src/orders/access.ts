import {
  customerEmailKey,
  type OrderView,
  type RevealChannel,
  type revealViewerSchema,
} from '@licensestore/domain';
import type { AccessPurpose, OrderAccess } from '@licensestore/platform/order-access';
import type { Request, Response } from 'express';
import type { z } from 'zod';
import { cookieValues, setCapabilityCookie } from '../http/cookies.js';

/** The cookie of a browser that may read one order's keys; its path is that order's routes. */
export const ORDER_ACCESS_COOKIE = 'order_access';
const ORDER_ACCESS_DAYS = 30;

export type RevealViewer = z.infer<typeof revealViewerSchema>;

/**
 * How a caller sees an order's license keys: in clear (with the door it came through and who it is, for the
 * custody record each showing appends), masked (the back office), or not at all.
 */
export type KeyAccess =
  | { keys: 'clear'; channel: RevealChannel; viewer: RevealViewer }
  | { keys: 'masked' }
  | { keys: 'none' };

/** Which door an order access cookie was given at: the capture's answer, or the delivery e-mail's link. */
const COOKIE_CHANNELS: ReadonlyArray<{ purpose: AccessPurpose; channel: RevealChannel }> = [
  { purpose: 'order-cookie', channel: 'confirmation-page' },
  { purpose: 'order-link-cookie', channel: 'email-link' },
];

/**
 * A license key is a capability: in clear only to the customer signed in with the order's address and to a
 * browser holding the order's access cookie (the one that paid, or that opened the e-mail's link); the back office
 * sees keys masked (an admin opens one on purpose through the recorded reveal); whoever merely knows the order id
 * (it shows in logs, lists and URLs) sees none. The cookie names the channel before the session does: it says how
 * this page was reached, while a session only says who is signed in.
 */
export function keyAccess(
  req: Request,
  order: Pick<OrderView, 'id' | 'customerEmail'>,
  access: OrderAccess,
): KeyAccess {
  const session = req.session;
  if (session?.kind === 'admin' || session?.kind === 'auditor') return { keys: 'masked' };
  const customer =
    session?.kind === 'customer' &&
    customerEmailKey(session.subjectId) === customerEmailKey(order.customerEmail)
      ? session.subjectId
      : null;
  const viewer: RevealViewer = customer
    ? { type: 'customer', id: customer }
    : { type: 'order-link', id: null };
  const cookies = cookieValues(req.get('cookie'), ORDER_ACCESS_COOKIE);
  const door = COOKIE_CHANNELS.find(({ purpose }) =>
    cookies.some((token) => access.verify(purpose, order.id, token)),
  );
  if (door) return { keys: 'clear', channel: door.channel, viewer };
  return customer ? { keys: 'clear', channel: 'my-orders', viewer } : { keys: 'none' };
}

/**
 * Gives the browser of this response the order's access cookie: HttpOnly, same-site only, on that order's routes.
 * `via` is the door: the capture's answer (`order-cookie`) or the delivery e-mail's link (`order-link-cookie`).
 */
export function grantOrderAccess(
  res: Response,
  orderId: string,
  {
    access,
    secureCookies,
    via = 'order-cookie',
  }: { access: OrderAccess; secureCookies: boolean; via?: 'order-cookie' | 'order-link-cookie' },
) {
  setCapabilityCookie(
    res,
    {
      name: ORDER_ACCESS_COOKIE,
      token: access.token(via, orderId),
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
export const orderViewFor = (order: OrderView, access: KeyAccess): OrderView =>
  access.keys === 'none' ? { ...order, customerEmail: maskedEmail(order.customerEmail) } : order;
