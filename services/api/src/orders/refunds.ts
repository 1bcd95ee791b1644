import type { RefundRequestBody } from '@licensestore/contract/refunds';
import {
  AppError,
  formatCents,
  NotFoundError,
  type OrderCommand,
  type OrderUnit,
  orderDecider,
  orderStream,
} from '@licensestore/domain';
import { type CommandOptions, handleCommand, loadStream } from '@licensestore/domain/commands';
import type { EventStore, NewEventMetadata, Position } from '@licensestore/domain/events';
import type { DatabaseHandle } from '@licensestore/platform/db';
import { timeOrderedId } from '@licensestore/platform/ids';
import type { Logger } from '@licensestore/platform/logging';
import { PayPalError, type PaypalClient, type PaypalRefund } from '../payments/index.js';

export interface RefundDeps {
  eventStore: EventStore;
  database: DatabaseHandle;
  paypal: PaypalClient;
  logger: Logger;
}

/** What a refund came to: its id, and where the order stream stands for a read-your-writes wait. */
export interface RefundOutcome {
  refundId: string;
  status: 'requested' | 'completed' | 'failed';
  /** PayPal's issue code when it refused. */
  code?: string;
  position: Position | null;
}

/** PayPal's issue codes are short upper-case words; anything else is kept to a short, storable code. */
const shortCode = (text: string) => text.replace(/[^A-Z0-9_]/gi, '_').slice(0, 64) || 'REFUND_REFUSED';

/**
 * Decides the refund on the order (units exist, are not refunded nor in a refund in flight, the payment is money
 * PayPal holds, the amount priced in cents) and records it as requested before any money moves; then asks PayPal.
 * `options` may name the order revision the admin chose the units on: a refund of a changed order is refused.
 */
export async function requestRefund(
  deps: RefundDeps,
  orderId: string,
  body: RefundRequestBody,
  metadata: NewEventMetadata,
  options: CommandOptions = {},
): Promise<RefundOutcome> {
  const refundId = timeOrderedId();
  const units: OrderUnit[] | 'all' = 'all' in body ? 'all' : body.units;
  await handleCommand(
    deps.eventStore,
    orderStream(orderId),
    orderDecider,
    {
      type: 'RefundOrderUnits',
      orderId,
      refundId,
      units,
      reason: body.reason,
      now: new Date().toISOString(),
    },
    metadata,
    options,
  );
  return settleRefund(deps, orderId, refundId, metadata);
}

/**
 * Asks PayPal for a requested refund and records its answer. The refund's id is its PayPal-Request-Id, so asking
 * again (a retry after a crash, a lost answer) gets PayPal's first refund back, never a second one; the refund's
 * `custom_id` names it too, so PayPal's webhook completes it if no answer ever arrives. PayPal unreachable leaves
 * the refund requested (a 502 says so); a refusal is recorded as failed with PayPal's issue code.
 */
export async function settleRefund(
  deps: RefundDeps,
  orderId: string,
  refundId: string,
  metadata: NewEventMetadata,
): Promise<RefundOutcome> {
  const { state: order, position } = await loadStream(deps.eventStore, orderStream(orderId), orderDecider);
  const refund = order.status === 'absent' ? undefined : order.refunds.find((r) => r.refundId === refundId);
  if (order.status === 'absent' || !refund) throw new NotFoundError('Refund not found');
  if (refund.status !== 'requested') return { refundId, status: refund.status, position };
  const amount = formatCents(refund.cents);
  const record = (command: OrderCommand) =>
    handleCommand(deps.eventStore, orderStream(orderId), orderDecider, command, metadata);
  const fail = async (code: string, message: string): Promise<RefundOutcome> => {
    const now = new Date().toISOString();
    const failed = await record({ type: 'FailOrderRefund', orderId, refundId, code, message, now });
    return { refundId, status: 'failed', code, position: failed.position };
  };
  let answer: PaypalRefund;
  try {
    answer = await deps.paypal.refund(
      order.captureId,
      { amount: { currency_code: order.currency, value: amount }, custom_id: refundId },
      refundId,
    );
  } catch (error) {
    if (!(error instanceof PayPalError) || error.unavailable) {
      deps.logger.warn(
        { err: error, orderId, refundId },
        'PayPal did not answer a refund; it stays requested',
      );
      throw new AppError(
        502,
        'PayPal did not answer. The refund stays requested: it completes when PayPal confirms it, or try again.',
      );
    }
    const code = shortCode(error.issue ?? error.name);
    deps.logger.warn({ orderId, refundId, code, debugId: error.debugId }, 'PayPal refused a refund');
    return fail(code, error.description.slice(0, 500) || code);
  }
  // PENDING: PayPal completes it later and says so by webhook; FAILED or CANCELLED: it moved no money.
  if (answer.status === 'PENDING') return { refundId, status: 'requested', position };
  if (answer.status !== 'COMPLETED') {
    const status = shortCode(answer.status);
    return fail(`REFUND_${status}`, `PayPal answered the refund with status ${status}`);
  }
  const completed = await record({
    type: 'CompleteOrderRefund',
    orderId,
    captureId: order.captureId,
    refundId,
    paypalRefundId: answer.id,
    amount: answer.amount?.value ?? amount,
    now: new Date().toISOString(),
  });
  return { refundId, status: 'completed', position: completed.position };
}
