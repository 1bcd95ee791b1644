import type { OrderAccess } from '@licensestore/platform/order-access';
import type { Request, Response } from 'express';
import { cookieValues, setCapabilityCookie } from '../http/cookies.js';

/** The cookie of the browser that started a PayPal order; its path is that PayPal order's capture. */
export const CHECKOUT_ACCESS_COOKIE = 'checkout_access';
/** Long enough to approve a payment at leisure, short of keeping a stale checkout's cookie around. */
const CHECKOUT_ACCESS_HOURS = 6;

/** Marks this response's browser as the one that started the PayPal order: its capture gets the order. */
export function grantCheckoutAccess(
  res: Response,
  paypalOrderId: string,
  { access, secureCookies }: { access: OrderAccess; secureCookies: boolean },
) {
  setCapabilityCookie(
    res,
    {
      name: CHECKOUT_ACCESS_COOKIE,
      token: access.token('checkout', paypalOrderId),
      path: `/paypal/order/${paypalOrderId}`,
      maxAgeMs: CHECKOUT_ACCESS_HOURS * 60 * 60 * 1000,
    },
    secureCookies,
  );
}

/** Whether the caller's browser started this PayPal order. */
export const holdsCheckoutAccess = (req: Request, paypalOrderId: string, access: OrderAccess) =>
  cookieValues(req.get('cookie'), CHECKOUT_ACCESS_COOKIE).some((token) =>
    access.verify('checkout', paypalOrderId, token),
  );
