// The checkout: what the browser sends PayPal's order and its capture with, and what it is answered.
import { customerEmailSchema, customerNameSchema, decimalAmount } from '@licensestore/domain';
import { storableText } from '@licensestore/domain/text';
import { z } from 'zod';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_BODY_ITEMS = 100;

const productId = z
  .string()
  .regex(UUID, 'must be a product id')
  .transform((id) => id.toLowerCase());

/** The buyer the checkout form names, sent with each request that names them. */
const buyerFields = { customerName: customerNameSchema, customerEmail: customerEmailSchema };

/**
 * POST /paypal/order: the cart the server prices. The buyer goes with it, both fields or neither (a client of the
 * bare API may name the buyer at capture only).
 */
export const startCheckoutRequestSchema = z.object({
  customerName: buyerFields.customerName.optional(),
  customerEmail: buyerFields.customerEmail.optional(),
  amount: decimalAmount,
  currency: z.string().refine((currency) => currency === 'USD', 'only USD is accepted'),
  intent: z
    .string()
    .refine((intent) => intent.toUpperCase() === 'CAPTURE', 'must be CAPTURE')
    .optional(),
  items: z
    .array(z.object({ productId, quantity: z.number().int('must be a whole number') }))
    .min(1, 'The cart is empty')
    .max(MAX_BODY_ITEMS, `at most ${MAX_BODY_ITEMS} lines`),
});
export type StartCheckoutRequest = z.input<typeof startCheckoutRequestSchema>;

/** POST /paypal/order/:orderID/capture: the buyer, and the lines as the browser showed them. */
export const captureRequestSchema = z.object({
  ...buyerFields,
  /** What the browser showed; informational only, never priced from. */
  items: z
    .array(
      z.object({
        productId: storableText({ min: 0, max: 100 }),
        productName: storableText({ min: 0, max: 500 }).optional(),
        price: z.union([storableText({ min: 0, max: 20 }), z.number()]).optional(),
        quantity: z.number().int().min(0).max(1000),
      }),
    )
    .max(MAX_BODY_ITEMS)
    .optional(),
});
export type CaptureRequest = z.input<typeof captureRequestSchema>;

/** POST /paypal/order answers PayPal's order id. */
export const checkoutStartedSchema = z.object({ id: z.string() });
export type CheckoutStartedView = z.infer<typeof checkoutStartedSchema>;

/** GET /api/payments/config: how the browser loads PayPal's SDK (the emulator's when `simulated`). */
export interface PaymentsConfigView {
  clientId: string;
  sdkBaseUrl: string;
  currency: string;
  simulated: boolean;
}
