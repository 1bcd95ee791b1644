// Refunds of an order: what an admin asks for, and what the back office is answered.
import {
  decimalAmount,
  type OrderRefundView,
  orderUnitSchema,
  type RefundableUnitView,
} from '@licensestore/domain';
import { storableText } from '@licensestore/domain/text';
import { z } from 'zod';
import type { ViewShape } from './view-shape.js';

const reason = storableText({ max: 500, multiline: true, label: 'Reason' });

/** POST /api/orders/:id/refunds: chosen units, or every unit still the customer's; always a reason. */
export const refundRequestSchema = z.union([
  z.object({ units: z.array(orderUnitSchema).min(1, 'choose at least one unit').max(1000), reason }).strict(),
  z.object({ all: z.literal(true), reason }).strict(),
]);
/** The request as a client sends it. */
export type RefundRequest = z.input<typeof refundRequestSchema>;
/** The request as the api reads it (the reason normalised). */
export type RefundRequestBody = z.output<typeof refundRequestSchema>;

const REFUND_STATUSES: ReadonlyArray<OrderRefundView['status']> = ['requested', 'completed', 'failed'];

const orderRefundViewShape = {
  id: z.string(),
  refundId: z.string().nullable(),
  paypalRefundId: z.string().nullable(),
  amount: decimalAmount,
  units: z.array(z.object({ lineId: z.string(), keyId: z.string().nullable(), productName: z.string() })),
  reason: z.string().nullable(),
  status: z.enum(REFUND_STATUSES),
  requestedBy: z.string().nullable(),
  requestedAt: z.string(),
  completedAt: z.string().nullable(),
  failedAt: z.string().nullable(),
  failureCode: z.string().nullable(),
  failureMessage: z.string().nullable(),
} satisfies ViewShape<OrderRefundView>;

/** A refund as the back office sees it; POST /api/orders/:id/refunds answers the one it made. */
export const orderRefundViewSchema = z.object(orderRefundViewShape);

const refundableUnitViewShape = {
  lineId: z.string(),
  keyId: z.string().nullable(),
  productName: z.string(),
  unitPrice: decimalAmount,
  maskedKey: z.string().nullable(),
  leftStore: z.boolean(),
} satisfies ViewShape<RefundableUnitView>;

/** A unit the refund dialog offers (GET /api/orders/:id/refundable-units). */
export const refundableUnitViewSchema = z.object(refundableUnitViewShape);
