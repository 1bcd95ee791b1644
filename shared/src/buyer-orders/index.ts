// What the buyer's screens (order page, My Orders) read beyond the order itself: money that went back, and whether
// this visitor may open the order's keys and receipt. Browser-safe: zod only.
import { z } from 'zod';
import { decimalAmount } from '../money/index.js';

/** One completed refund as the buyer sees it: how much, when, and the product of each refunded unit. */
export const buyerRefundSchema = z.object({
  amount: decimalAmount,
  completedAt: z.iso.datetime(),
  /** One name per refunded unit; empty for a refund of money only. */
  productNames: z.array(z.string()),
});
export type BuyerRefundView = z.infer<typeof buyerRefundSchema>;

export const buyerOrderMoneySchema = z.object({
  /** Every completed refund, oldest first. */
  refunds: z.array(buyerRefundSchema),
  refundedTotal: decimalAmount,
  /** What the buyer paid and kept paid: the total less the refunds. */
  netTotal: decimalAmount,
  /**
   * This visitor may open the order's keys and receipt: the browser that paid, the delivery email's link, or the
   * customer signed in with the order's address.
   */
  hasAccess: z.boolean(),
});
export type BuyerOrderMoney = z.infer<typeof buyerOrderMoneySchema>;
