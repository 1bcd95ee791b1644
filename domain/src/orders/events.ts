import { z } from 'zod';
import { parseEventData } from '../events/event-data.js';
import { assignedKeySchema, revealChannelSchema, revealViewerSchema } from '../license-keys/events.js';
import { decimalAmount } from '../money/index.js';
import { riskRuleNameSchema } from '../risk/rules.js';

/**
 * Events of the checkout (`checkout-<paypalOrderId>`) and order (`order-<uuid>`) streams, each in its current
 * version (domain/src/events/event-versions.ts).
 * Money is a decimal string with 2 places, computed in integer cents; the server prices every line.
 */

export const orderLineSchema = z.object({
  lineId: z.string().min(1),
  productId: z.uuid(),
  productName: z.string().min(1),
  quantity: z.number().int().positive(),
  unitPrice: decimalAmount,
  lineTotal: decimalAmount,
});
export type OrderLine = z.infer<typeof orderLineSchema>;

export const customerSchema = z.object({ name: z.string().min(1), email: z.string().min(3) });
export type Customer = z.infer<typeof customerSchema>;

/** PayPal capture statuses the store acts on (fulfil on the capture status, not the order status). */
export const captureStatusSchema = z.enum(['COMPLETED', 'PENDING']);

/** One unit of an order line, by the key it holds (null: the unit has no key yet). */
export const orderUnitSchema = z.object({ lineId: z.string().min(1), keyId: z.uuid().nullable() });
export type OrderUnit = z.infer<typeof orderUnitSchema>;

/** A salted hash (HMAC-SHA256) of a client's address: its activity can be compared, the address not read back. */
export const clientHashSchema = z.string().regex(/^[0-9a-f]{64}$/, 'an HMAC-SHA256 of the client address');

/** Where an order held by the risk rules stands: null for an order never held. */
export const reviewStatusSchema = z.enum(['held', 'approved', 'rejected']);
export type ReviewStatus = z.infer<typeof reviewStatusSchema>;

export const orderStatusSchema = z.enum(['pending', 'processing', 'completed', 'cancelled', 'refunded']);
export type OrderStatus = z.infer<typeof orderStatusSchema>;

export const checkoutEventSchemas = {
  /** The server priced the cart and created the PayPal order. */
  CheckoutStarted: z.object({
    paypalOrderId: z.string().min(1),
    lines: z.array(orderLineSchema.omit({ lineId: true })).min(1),
    total: decimalAmount,
    currency: z.literal('USD'),
    /** The buyer the starting browser named; a webhook that completes the payment without it records them. */
    customer: customerSchema.optional(),
    /** The starting browser's address, hashed: what the velocity rules count orders of (absent before they did). */
    clientHash: clientHashSchema.optional(),
    startedAt: z.iso.datetime(),
  }),
  /** PayPal captured the payment and the store took it as order `orderId` (written before the order stream). */
  CheckoutCaptured: z.object({
    paypalOrderId: z.string().min(1),
    orderId: z.uuid(),
    captureId: z.string().min(1),
    captureStatus: captureStatusSchema,
    customer: customerSchema,
    capturedAt: z.iso.datetime(),
  }),
};

export const orderEventSchemas = {
  /** Version 2 (ADR 014): v1 lacked `captureStatus`; it is upcast from the status v1 derived from it. */
  OrderCaptured: z.object({
    orderId: z.uuid(),
    paypalOrderId: z.string().min(1),
    captureId: z.string().min(1),
    /** What PayPal reported: whether the money is taken (COMPLETED) or still held (PENDING). */
    captureStatus: captureStatusSchema,
    customer: customerSchema,
    lines: z.array(orderLineSchema).min(1),
    total: decimalAmount,
    currency: z.literal('USD'),
    /** The status the order opened with: 'pending' while PayPal holds the capture, else 'processing'. */
    status: orderStatusSchema,
    /** The hashed address of the browser that started the checkout; absent when unknown. */
    clientHash: clientHashSchema.optional(),
    capturedAt: z.iso.datetime(),
  }),
  /**
   * The risk rules matched the order as it was placed (recorded with its OrderCaptured): its keys are set aside as
   * usual but neither shown nor e-mailed until it is approved.
   */
  OrderHeldForReview: z.object({
    orderId: z.uuid(),
    rules: z.array(riskRuleNameSchema).min(1),
    /** When the system approves it if nobody decided by then, as the rules said when it was held; null: never. */
    autoApproveAt: z.iso.datetime().nullable().optional(),
    heldAt: z.iso.datetime(),
  }),
  /** A held order was let through (by an admin, or by the system after the set wait): its keys are delivered. */
  OrderApproved: z.object({ orderId: z.uuid(), automatic: z.boolean(), approvedAt: z.iso.datetime() }),
  /**
   * The e-mail telling the buyer of a review caused by event `trigger` (OrderHeldForReview: the order is being
   * checked; OrderRejected: it was not approved) was handed to the mailer.
   */
  OrderReviewEmailSent: z.object({
    orderId: z.uuid(),
    trigger: z.uuid(),
    recipient: z.string().min(3),
    messageId: z.string().min(1),
    sentAt: z.iso.datetime(),
  }),
  /** An admin rejected a held order; its full refund follows as OrderRefundRequested. */
  OrderRejected: z.object({
    orderId: z.uuid(),
    reason: z.string().min(1).max(500),
    rejectedAt: z.iso.datetime(),
  }),
  /** A PENDING capture completed (webhook PAYMENT.CAPTURE.COMPLETED). */
  OrderPaymentCompleted: z.object({
    orderId: z.uuid(),
    captureId: z.string().min(1),
    completedAt: z.iso.datetime(),
  }),
  /** A PENDING capture was denied (webhook PAYMENT.CAPTURE.DENIED): the order is cancelled. */
  OrderPaymentDenied: z.object({
    orderId: z.uuid(),
    captureId: z.string().min(1),
    deniedAt: z.iso.datetime(),
  }),
  /** Kept for stored history: a whole-order refund reported by webhook before refunds had their own events. */
  OrderRefunded: z.object({ orderId: z.uuid(), captureId: z.string().min(1), refundedAt: z.iso.datetime() }),
  /**
   * An admin asked PayPal to refund these units (`refundId` is also the PayPal-Request-Id, so a retry never
   * refunds twice). `amount` is what the store computed for the units.
   */
  OrderRefundRequested: z.object({
    orderId: z.uuid(),
    refundId: z.uuid(),
    captureId: z.string().min(1),
    units: z.array(orderUnitSchema).min(1),
    amount: decimalAmount,
    reason: z.string().min(1).max(500),
    requestedAt: z.iso.datetime(),
  }),
  /**
   * PayPal refunded money on the order's capture: one the store requested (`refundId` is ours), or one made in
   * PayPal's own dashboard (`refundId` null; `units` are those the amount covers, or none for a money-only refund).
   */
  OrderRefundCompleted: z.object({
    orderId: z.uuid(),
    refundId: z.uuid().nullable(),
    paypalRefundId: z.string().min(1),
    units: z.array(orderUnitSchema),
    amount: decimalAmount,
    completedAt: z.iso.datetime(),
  }),
  /** PayPal refused a requested refund; the units stay sold. `code` is PayPal's issue code, for support. */
  OrderRefundFailed: z.object({
    orderId: z.uuid(),
    refundId: z.uuid(),
    code: z.string().min(1),
    message: z.string().min(1),
    failedAt: z.iso.datetime(),
  }),
  /** License keys were shown in clear: who, through which door, and a salted hash of the client's address. */
  LicenceKeysRevealed: z.object({
    orderId: z.uuid(),
    keyIds: z.array(z.uuid()).min(1),
    channel: revealChannelSchema,
    viewer: revealViewerSchema,
    clientHash: clientHashSchema,
    revealedAt: z.iso.datetime(),
  }),
  /** The inventory gave a line these keys (sealed); a line may get its keys over several events. */
  OrderLicenceKeysAssigned: z.object({
    orderId: z.uuid(),
    lineId: z.string().min(1),
    keys: z.array(assignedKeySchema).min(1),
    assignedAt: z.iso.datetime(),
  }),
  /** Every unit of every line has its key: the order is delivered (a processing order becomes completed). */
  OrderFulfilled: z.object({ orderId: z.uuid(), fulfilledAt: z.iso.datetime() }),
  /** An admin asked for the delivery e-mail to be sent again. */
  DeliveryEmailResendRequested: z.object({ orderId: z.uuid(), requestedAt: z.iso.datetime() }),
  /** The delivery e-mail caused by event `trigger` (OrderFulfilled or a resend request) was handed to the mailer. */
  DeliveryEmailSent: z.object({
    orderId: z.uuid(),
    trigger: z.uuid(),
    recipient: z.string().min(3),
    messageId: z.string().min(1),
    sentAt: z.iso.datetime(),
  }),
  /**
   * The order is paid and is about to take the next receipt number of `year` (the UTC year it was paid in).
   * `receiptsAfterRevision` is the last revision of that year's receipts stream before the order took part in it
   * (null: the stream did not exist), so whether the order holds a number is read from the stream's newer events
   * only, however long the year's stream is.
   */
  OrderReceiptRequested: z.object({
    orderId: z.uuid(),
    year: z.number().int().min(2000).max(9999),
    receiptsAfterRevision: z.number().int().min(0).nullable(),
    requestedAt: z.iso.datetime(),
  }),
  /** The order's receipt number, as the year's receipts stream assigned it (once per order). */
  OrderReceiptIssued: z.object({
    orderId: z.uuid(),
    receiptNumber: z.string().regex(/^\d{4}-\d{6,}$/),
    issuedAt: z.iso.datetime(),
  }),
  /**
   * An admin set a cancelled order back to pending or completed: it is owed a key for every unit still the
   * customer's again, and gives up for good the keys it held (`keysGivenUp`, already released or about to be). The
   * status it takes follows as OrderStatusChanged.
   */
  OrderReopened: z.object({
    orderId: z.uuid(),
    keysGivenUp: z.array(z.object({ lineId: z.string().min(1), keyId: z.uuid() })),
    reopenedAt: z.iso.datetime(),
  }),
  /** An admin (or the system) set the status; `from` is the status before. */
  OrderStatusChanged: z.object({
    orderId: z.uuid(),
    from: orderStatusSchema,
    to: orderStatusSchema,
    changedAt: z.iso.datetime(),
  }),
};

type EventUnion<Schemas extends Record<string, z.ZodType>> = {
  [K in keyof Schemas & string]: { type: K; data: z.infer<Schemas[K]> };
}[keyof Schemas & string];

export type CheckoutEvent = EventUnion<typeof checkoutEventSchemas>;
export type OrderEvent = EventUnion<typeof orderEventSchemas>;

export const checkoutStream = (paypalOrderId: string) => `checkout-${paypalOrderId}`;
export const orderStream = (orderId: string) => `order-${orderId}`;

export function parseCheckoutEvent(type: string, data: unknown): CheckoutEvent | null {
  if (!(type in checkoutEventSchemas)) return null;
  return {
    type,
    data: parseEventData(checkoutEventSchemas[type as CheckoutEvent['type']], data),
  } as CheckoutEvent;
}

export function parseOrderEvent(type: string, data: unknown): OrderEvent | null {
  if (!(type in orderEventSchemas)) return null;
  return { type, data: parseEventData(orderEventSchemas[type as OrderEvent['type']], data) } as OrderEvent;
}
