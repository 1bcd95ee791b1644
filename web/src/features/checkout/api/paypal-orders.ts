import type { CheckoutCart, Customer } from '../types';
import { paypalAmount } from '../utils/money';

/** The payment was taken, but its answer could not be used: the customer must not be told it failed. */
export class OrderProcessingError extends Error {}

export type CaptureOutcome =
  | { status: 'captured'; orderId: string }
  | { status: 'declined'; message: string };

const postJson = (url: string, body: unknown) =>
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

/** POST /paypal/order: the server prices the cart and answers PayPal's order id. */
export async function createPaypalOrder(cart: CheckoutCart): Promise<string> {
  const response = await postJson('/paypal/order', {
    amount: paypalAmount(cart.subtotalCents),
    currency: 'USD',
    intent: 'CAPTURE',
    items: cart.lines.map(({ productId, quantity }) => ({ productId, quantity })),
  });
  if (!response.ok) throw new Error((await errorBody(response)).error ?? `Server error: ${response.status}`);
  const { id } = (await response.json()) as { id?: unknown };
  if (typeof id !== 'string') throw new Error('Unknown error');
  return id;
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
    customerName: customer.customerName.trim(),
    customerEmail: customer.customerEmail.trim(),
    items: cart.lines.map((line) => ({
      productId: line.productId,
      productName: line.productName,
      price: line.price.toFixed(2),
      quantity: line.quantity,
    })),
  });
  if (!response.ok) {
    const { error, issue } = await errorBody(response);
    const message = error ?? `Payment capture failed: ${response.status}`;
    if (issue === 'INSTRUMENT_DECLINED') return { status: 'declined', message };
    throw new Error(message);
  }
  try {
    const order = (await response.json()) as { id?: unknown };
    if (typeof order.id !== 'string') throw new Error('the stored order has no id');
    return { status: 'captured', orderId: order.id };
  } catch (error) {
    throw new OrderProcessingError('Payment captured, its answer unreadable', { cause: error });
  }
}
