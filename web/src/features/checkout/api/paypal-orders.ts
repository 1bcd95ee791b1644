import {
  type CaptureRequest,
  checkoutStartedSchema,
  type StartCheckoutRequest,
} from '@licensestore/contract/checkout';
import { orderViewSchema } from '@licensestore/contract/orders';
import type { CheckoutCart, Customer } from '../types';
import { paypalAmount } from '../utils/money';
import { PaymentRequestError } from '../utils/payment-problems';

/** The payment was taken, but its answer could not be used: the customer must not be told it failed. */
export class OrderProcessingError extends Error {}

/** `paymentStatus`: `pending` while PayPal reviews the payment, `completed` when it is taken. */
export type CaptureOutcome =
  | { status: 'captured'; orderId: string; paymentStatus: string }
  | { status: 'declined'; error: PaymentRequestError };

const postJson = (url: string, body: StartCheckoutRequest | CaptureRequest) =>
  fetch(url, {
    method: 'POST',
    credentials: 'include',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

/** The `{ error, issue }` an error answer carries, or nothing when its body is not that. */
async function errorBody(response: Response): Promise<{ error?: string; issue?: string }> {
  try {
    const body: unknown = await response.json();
    return typeof body === 'object' && body !== null ? body : {};
  } catch {
    return {};
  }
}

/** The buyer as the form names them, trimmed as the server stores them. */
const buyerFields = (customer: Customer) => ({
  customerName: customer.customerName.trim(),
  customerEmail: customer.customerEmail.trim(),
});

/**
 * POST /paypal/order: the server prices the cart and answers PayPal's order id. The buyer goes with it, so a payment
 * whose answer never reaches this page (a closed tab, a lost connection) is still recorded for them.
 */
export async function createPaypalOrder(cart: CheckoutCart, customer: Customer): Promise<string> {
  const response = await postJson('/paypal/order', {
    ...buyerFields(customer),
    amount: paypalAmount(cart.subtotalCents),
    currency: 'USD',
    intent: 'CAPTURE',
    items: cart.lines.map(({ productId, quantity }) => ({ productId, quantity })),
  });
  if (!response.ok) {
    const { error, issue } = await errorBody(response);
    throw new PaymentRequestError(response.status, error ?? `Server error: ${response.status}`, issue);
  }
  const started = checkoutStartedSchema.safeParse(await response.json());
  if (!started.success) throw new Error('Unknown error');
  return started.data.id;
}

/**
 * POST /paypal/order/:orderID/capture. A declined instrument is an outcome (the buyer may pick another one);
 * any other failure throws, and an answer that cannot be read after a success throws OrderProcessingError.
 */
export async function capturePaypalOrder(
  orderID: string,
  customer: Customer,
  cart: CheckoutCart,
): Promise<CaptureOutcome> {
  const response = await postJson(`/paypal/order/${encodeURIComponent(orderID)}/capture`, {
    ...buyerFields(customer),
    items: cart.lines.map((line) => ({
      productId: line.productId,
      productName: line.productName,
      price: line.price.toFixed(2),
      quantity: line.quantity,
    })),
  });
  if (!response.ok) {
    const { error, issue } = await errorBody(response);
    const refusal = new PaymentRequestError(
      response.status,
      error ?? `Payment capture failed: ${response.status}`,
      issue,
    );
    if (issue === 'INSTRUMENT_DECLINED') return { status: 'declined', error: refusal };
    throw refusal;
  }
  try {
    const order = orderViewSchema.parse(await response.json());
    return { status: 'captured', orderId: order.id, paymentStatus: order.paymentStatus };
  } catch (error) {
    throw new OrderProcessingError('Payment captured, its answer unreadable', { cause: error });
  }
}
