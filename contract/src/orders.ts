// The order routes' requests, and the schemas of the answers that carry licence keys and money.
import {
  type BackOfficeOrderView,
  decimalAmount,
  type OrderItemView,
  type OrderKeyStatus,
  type OrderView,
} from '@licensestore/shared';
import { buyerOrderMoneySchema } from '@licensestore/shared/buyer-orders';
import { z } from 'zod';
import { orderRefundViewSchema } from './refunds.js';
import type { ViewShape } from './view-shape.js';

/** What an admin may set; processing and refunded follow from payments and deliveries. */
export const ADMIN_STATUSES = ['pending', 'completed', 'cancelled'] as const;
export type AdminStatus = (typeof ADMIN_STATUSES)[number];

/** PATCH /api/orders/:id/status. */
export const orderStatusChangeSchema = z.object({
  status: z.enum(ADMIN_STATUSES, { error: `must be one of ${ADMIN_STATUSES.join(', ')}` }),
});

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
