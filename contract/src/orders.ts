// The order routes' requests, and the schemas of the answers that carry license keys and money.
import {
  type BackOfficeOrderView,
  decimalAmount,
  type OrderItemView,
  type OrderKeyStatus,
  type OrderView,
  orderStatusSchema,
  reviewStatusSchema,
} from '@licensestore/domain';
import { storableText } from '@licensestore/domain/text';
import { z } from 'zod';
import { orderRefundViewSchema } from './refunds.js';
import { searchTermSchema } from './search.js';
import type { ViewShape } from './view-shape.js';

/** What an admin may set; processing and refunded follow from payments and deliveries. */
export const ADMIN_STATUSES = ['pending', 'completed', 'cancelled'] as const;
export type AdminStatus = (typeof ADMIN_STATUSES)[number];

/** PATCH /api/orders/:id/status. */
export const orderStatusChangeSchema = z.object({
  status: z.enum(ADMIN_STATUSES, { error: `must be one of ${ADMIN_STATUSES.join(', ')}` }),
});

const STATUSES = orderStatusSchema.options;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A UTC day (`2026-11-26`) as the instant it starts. */
const day = (field: 'from' | 'to') =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'must be a date like 2026-11-26' })
    .transform((text, ctx) => {
      const start = new Date(`${text}T00:00:00.000Z`);
      if (Number.isNaN(start.getTime()) || start.toISOString().slice(0, 10) !== text) {
        ctx.addIssue({ code: 'custom', message: `${text} is no date`, path: [] });
        return z.NEVER;
      }
      // `to` names the last day included: orders before the next day's start.
      return field === 'to' ? new Date(start.getTime() + DAY_MS) : start;
    })
    .optional();

/**
 * GET /api/admin/orders: the list's filters beside the paging parameters: status, placed from / to (UTC days, both
 * included), one customer's e-mail, and a search `q` for an order number (`#1A2B3C4D` or part of it from the start),
 * an order id, a PayPal order id, or part of the customer's name or e-mail address.
 */
export const orderListFiltersSchema = z
  .object({
    status: z.enum(STATUSES, { error: `must be one of ${STATUSES.join(', ')}` }).optional(),
    from: day('from'),
    to: day('to'),
    customer: storableText({ max: 320 }).optional(),
    q: searchTermSchema,
  })
  .refine((filters) => !filters.from || !filters.to || filters.from < filters.to, {
    error: 'must not be before from',
    path: ['to'],
  });
export type OrderListFilters = z.output<typeof orderListFiltersSchema>;

/** POST /api/orders/:id/access: the delivery e-mail link's token, traded for the order's access cookie. */
export const orderAccessRequestSchema = z.object({ token: z.string().max(200) });

const orderViewShape = {
  id: z.string(),
  customerName: z.string(),
  customerEmail: z.string(),
  total: decimalAmount,
  status: z.string(),
  createdAt: z.string(),
  paymentStatus: z.string(),
  deliveryEmailSentAt: z.string().nullable(),
  receiptNumber: z.string().nullable(),
  reviewStatus: reviewStatusSchema.nullable(),
} satisfies ViewShape<OrderView>;

/** An order as the order routes and the capture answer it. */
export const orderViewSchema = z.object(orderViewShape);

const ORDER_KEY_STATUSES: readonly OrderKeyStatus[] = ['valid', 'refunded', 'revoked', 'returned'];

const orderItemViewShape = {
  id: z.string(),
  productName: z.string(),
  quantity: z.number().int(),
  price: decimalAmount,
  licenseKey: z.string().nullable().optional(),
  licenseKeys: z.array(z.string()).optional(),
  keyStatuses: z.array(z.enum(ORDER_KEY_STATUSES)).optional(),
  refundedUnits: z.number().int().optional(),
  licenseKeyIds: z.array(z.string()).optional(),
  keysWithheld: z.literal(true).optional(),
  downloadUrl: z.string().nullable(),
  installationNotes: z.string().nullable(),
} satisfies ViewShape<OrderItemView>;

/** One line of an order with the keys its caller may read (GET /api/orders/:id/items). */
export const orderItemViewSchema = z.object(orderItemViewShape);

/** GET /api/orders/:id/items: the order's lines. */
export const orderItemsSchema = z.array(orderItemViewSchema);

/** One completed refund as the buyer sees it: how much, when, and the product of each refunded unit. */
const buyerRefundSchema = z.object({
  amount: decimalAmount,
  completedAt: z.iso.datetime(),
  /** One name per refunded unit; empty for a refund of money only. */
  productNames: z.array(z.string()),
});

/**
 * What the buyer's screens (order page, My Orders) read beyond the order itself: money that went back, and whether
 * this visitor may open the order's keys and receipt.
 */
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

/** The order as its buyer's screens read it: with the money that went back and whether this visitor has access. */
export const buyerOrderSchema = orderViewSchema.extend(buyerOrderMoneySchema.shape);
export type BuyerOrderView = z.infer<typeof buyerOrderSchema>;

/** One of the signed-in customer's orders, with its lines (GET /api/my-orders). */
export const myOrderSchema = buyerOrderSchema.extend({ items: orderItemsSchema });
export type MyOrderView = z.infer<typeof myOrderSchema>;

/** What the order page's event stream pushes (GET /api/orders/:id/events, event `snapshot`). */
export const orderSnapshotSchema = z.object({ order: buyerOrderSchema, items: orderItemsSchema });

const backOfficeOrderViewShape = {
  ...orderViewShape,
  refundedTotal: decimalAmount,
  netTotal: decimalAmount,
  refunds: z.array(orderRefundViewSchema),
} satisfies ViewShape<BackOfficeOrderView>;

/** The back office's order: its refunds, the money refunded and what the store keeps (GET /api/orders/:id). */
export const backOfficeOrderSchema = z.object(backOfficeOrderViewShape);
