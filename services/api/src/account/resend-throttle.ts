import { TooManyRequestsError } from '@licensestore/domain';
import type { Redis } from 'ioredis';
import { countHits } from '../http/fixed-windows.js';

export interface ResendLimit {
  /** Resends one order's delivery e-mail may get per window. */
  perOrder: number;
  /** Resends one customer may ask for, over all their orders, per window. */
  perCustomer: number;
  windowSeconds: number;
}

/**
 * A customer who lost the e-mail asks once, maybe twice when it lands in spam; three an hour covers that, and keeps
 * the store's mail server from being used to flood an inbox (every resend goes to the order's address).
 */
export const RESEND_LIMIT: ResendLimit = { perOrder: 3, perCustomer: 3, windowSeconds: 60 * 60 };

const wait = (seconds: number) => {
  const minutes = Math.ceil(seconds / 60);
  return minutes <= 1 ? 'a minute' : `${minutes} minutes`;
};

/** Counts one resend of the order for the customer; over either limit it is a 429 with Retry-After. */
export async function countResend(
  redis: Redis,
  { orderId, customerKey }: { orderId: string; customerKey: string },
  limit: ResendLimit = RESEND_LIMIT,
): Promise<void> {
  const [order, customer] = await countHits(redis, limit.windowSeconds, [
    `delivery-resends:order:${orderId}`,
    `delivery-resends:customer:${customerKey}`,
  ] as const);
  if (order.count > limit.perOrder) {
    throw new TooManyRequestsError(
      `The keys of this order were emailed ${limit.perOrder} times in the last hour. Please check your spam ` +
        `folder, or try again in ${wait(order.secondsLeft)}.`,
      order.secondsLeft,
    );
  }
  if (customer.count > limit.perCustomer) {
    throw new TooManyRequestsError(
      `You asked for ${limit.perCustomer} emails with your keys in the last hour. Please check your spam ` +
        `folder, or try again in ${wait(customer.secondsLeft)}.`,
      customer.secondsLeft,
    );
  }
}
