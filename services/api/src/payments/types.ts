import { z } from 'zod';

/**
 * Orders v2 shapes the store sends and reads. Responses are validated loosely: the fields the store relies on
 * are checked, anything else PayPal adds passes through untouched.
 */

export interface Money {
  currency_code: string;
  /** A decimal string with at most two places. */
  value: string;
}

export interface OrderItem {
  name: string;
  sku?: string;
  /** A whole number as a string ('2'). */
  quantity: string;
  unit_amount: Money;
  category?: 'DIGITAL_GOODS' | 'PHYSICAL_GOODS' | 'DONATION';
}

export interface PurchaseUnitRequest {
  reference_id?: string;
  custom_id?: string;
  description?: string;
  amount: Money & { breakdown?: { item_total: Money } };
  items?: OrderItem[];
}

export interface CreateOrderRequest {
  intent: 'CAPTURE' | 'AUTHORIZE';
  purchase_units: PurchaseUnitRequest[];
}

export interface CardPaymentSource {
  card: { name?: string; number: string; expiry: string; security_code?: string };
}

export type PaymentSource = CardPaymentSource | Record<string, unknown>;

export interface RefundRequest {
  amount?: Money;
  /** The store's own reference; PayPal returns it on the refund and in its webhook (127 characters at most). */
  custom_id?: string;
  note_to_payer?: string;
}

/** What `verify-webhook-signature` needs: the `PAYPAL-*` headers, our webhook id and the body exactly as sent. */
export interface WebhookVerification {
  authAlgo: string;
  certUrl: string;
  transmissionId: string;
  transmissionSig: string;
  transmissionTime: string;
  webhookId: string;
  /** The webhook's raw body; it is embedded verbatim, never re-serialised. */
  rawEvent: string;
}

export const moneySchema = z.looseObject({ currency_code: z.string(), value: z.string() });

export const linkSchema = z.looseObject({ href: z.string(), rel: z.string(), method: z.string().optional() });

/** Capture statuses: COMPLETED, DECLINED, PENDING, REFUNDED, PARTIALLY_REFUNDED, FAILED (kept open: a string). */
export const captureSchema = z.looseObject({
  id: z.string(),
  status: z.string(),
  amount: moneySchema.optional(),
  status_details: z.looseObject({ reason: z.string().optional() }).optional(),
  custom_id: z.string().optional(),
  create_time: z.string().optional(),
});
export type PaypalCapture = z.infer<typeof captureSchema>;

const relatedIdsSchema = z.looseObject({
  supplementary_data: z
    .looseObject({
      related_ids: z
        .looseObject({ order_id: z.string().optional(), capture_id: z.string().optional() })
        .optional(),
    })
    .optional(),
  links: z.array(linkSchema).optional(),
});

/** A capture read on its own (and a webhook's capture resource): it names its order in supplementary_data. */
export const captureDetailsSchema = z.looseObject({ ...captureSchema.shape, ...relatedIdsSchema.shape });
export type PaypalCaptureDetails = z.infer<typeof captureDetailsSchema>;

/** A webhook's resource: a capture or a refund; a refund links its capture (`rel: 'up'`) instead. */
export const webhookResourceSchema = z.looseObject({
  id: z.string(),
  status: z.string().optional(),
  amount: moneySchema.optional(),
  custom_id: z.string().optional(),
  ...relatedIdsSchema.shape,
});
export type WebhookResource = z.infer<typeof webhookResourceSchema>;

export const purchaseUnitSchema = z.looseObject({
  reference_id: z.string().optional(),
  custom_id: z.string().optional(),
  amount: moneySchema.optional(),
  payments: z.looseObject({ captures: z.array(captureSchema).optional() }).optional(),
});

export const payerSchema = z.looseObject({
  payer_id: z.string().optional(),
  email_address: z.string().optional(),
  name: z.looseObject({ given_name: z.string().optional(), surname: z.string().optional() }).optional(),
});

/** Order statuses: CREATED, SAVED, APPROVED, VOIDED, COMPLETED, PAYER_ACTION_REQUIRED (kept open: a string). */
export const orderSchema = z.looseObject({
  id: z.string().regex(/^[A-Z0-9]+$/, 'PayPal order ids are upper-case letters and digits'),
  status: z.string(),
  intent: z.string().optional(),
  purchase_units: z.array(purchaseUnitSchema).optional(),
  payer: payerSchema.optional(),
  payment_source: z.record(z.string(), z.unknown()).optional(),
  links: z.array(linkSchema).optional(),
});
export type PaypalOrder = z.infer<typeof orderSchema>;

export const refundSchema = z.looseObject({
  id: z.string(),
  status: z.string(),
  amount: moneySchema.optional(),
  links: z.array(linkSchema).optional(),
});
export type PaypalRefund = z.infer<typeof refundSchema>;

export const tokenSchema = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.string().optional(),
  expires_in: z.number().positive(),
});

export const webhookVerificationSchema = z.looseObject({
  verification_status: z.enum(['SUCCESS', 'FAILURE']),
});

export const errorDetailSchema = z.looseObject({
  field: z.string().optional(),
  value: z.string().optional(),
  location: z.string().optional(),
  issue: z.string(),
  description: z.string().optional(),
});
export type PaypalErrorDetail = z.infer<typeof errorDetailSchema>;

/** PayPal's error body; OAuth failures answer `{ error, error_description }` instead. */
export const errorBodySchema = z.looseObject({
  name: z.string().optional(),
  message: z.string().optional(),
  debug_id: z.string().optional(),
  details: z.array(errorDetailSchema).optional(),
  error: z.string().optional(),
  error_description: z.string().optional(),
});

/** The capture that decides whether an order is paid: PayPal's docs say fulfil on it, not on the order status. */
export const firstCapture = (order: PaypalOrder): PaypalCapture | undefined =>
  order.purchase_units?.[0]?.payments?.captures?.[0];
