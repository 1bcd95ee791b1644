import { AppError, IllegalStateError, NotFoundError } from '../errors/index.js';
import { toCents } from '../money/index.js';
import type { CheckoutEvent, Customer } from './events.js';
import type { PricedLine } from './pricing.js';

/** What PayPal reported for the capture, as the command handler read it from PayPal's answer. */
export interface CaptureReport {
  id: string;
  /** PayPal's capture status, any of them; only COMPLETED and PENDING are accepted. */
  status: string;
  amount: string;
  currency: string;
}

/** A checkout as its start recorded it: the PayPal order, what it sells for how much, and what the browser said. */
interface CheckoutStart {
  paypalOrderId: string;
  lines: PricedLine[];
  total: string;
  currency: 'USD';
  /** The buyer the starting browser named, if it did: who a capture the browser never finished is for. */
  customer?: Customer;
  /** The starting browser's hashed address, when recorded: what velocity rules count its orders by. */
  clientHash?: string;
}

export type CheckoutCommand =
  | ({ type: 'StartCheckout'; now: string } & CheckoutStart)
  | {
      type: 'CaptureCheckout';
      paypalOrderId: string;
      /** The id the order gets if this capture is the one that counts (a fresh random UUID per attempt). */
      orderId: string;
      capture: CaptureReport;
      customer: Customer;
      now: string;
    };

export interface StartedCheckout extends CheckoutStart {
  status: 'started';
  startedAt: string;
}

export interface CapturedCheckout extends Omit<StartedCheckout, 'status'> {
  status: 'captured';
  orderId: string;
  captureId: string;
  captureStatus: 'COMPLETED' | 'PENDING';
  customer: Customer;
  capturedAt: string;
}

export type CheckoutState = { status: 'absent' } | StartedCheckout | CapturedCheckout;

export const initialCheckoutState: CheckoutState = { status: 'absent' };

/**
 * PayPal moved money the store does not take as payment for this checkout: a capture that is not COMPLETED or
 * PENDING, or one whose amount or currency differs from what the server priced. Nothing is recorded as paid.
 */
export class PaymentNotAcceptedError extends AppError {
  constructor(
    message: string,
    readonly reason: 'capture_status' | 'amount_mismatch',
  ) {
    super(422, message);
  }
}

/** PayPal money: digits with at most two decimals; anything else ("0.4998") matches no total. */
const exactCents = (amount: string): number | null =>
  /^\d{1,9}(\.\d{1,2})?$/.test(amount) ? toCents(amount) : null;

export function evolveCheckout(state: CheckoutState, event: CheckoutEvent): CheckoutState {
  switch (event.type) {
    case 'CheckoutStarted':
      return {
        status: 'started',
        paypalOrderId: event.data.paypalOrderId,
        lines: event.data.lines,
        total: event.data.total,
        currency: event.data.currency,
        ...(event.data.customer ? { customer: event.data.customer } : {}),
        ...(event.data.clientHash ? { clientHash: event.data.clientHash } : {}),
        startedAt: event.data.startedAt,
      };
    case 'CheckoutCaptured':
      if (state.status !== 'started') return state;
      return {
        ...state,
        status: 'captured',
        orderId: event.data.orderId,
        captureId: event.data.captureId,
        captureStatus: event.data.captureStatus,
        customer: event.data.customer,
        capturedAt: event.data.capturedAt,
      };
  }
}

const startCheckout = (
  cmd: Extract<CheckoutCommand, { type: 'StartCheckout' }>,
  state: CheckoutState,
): CheckoutEvent[] => {
  if (state.status !== 'absent') throw new IllegalStateError(`checkout ${cmd.paypalOrderId} already started`);
  const sum = cmd.lines.reduce((cents, line) => cents + toCents(line.lineTotal), 0);
  if (sum !== toCents(cmd.total)) {
    throw new IllegalStateError(
      `checkout ${cmd.paypalOrderId}: lines add up to ${sum} cents, not ${cmd.total}`,
    );
  }
  return [
    {
      type: 'CheckoutStarted',
      data: {
        paypalOrderId: cmd.paypalOrderId,
        lines: cmd.lines,
        total: cmd.total,
        currency: cmd.currency,
        ...(cmd.customer ? { customer: cmd.customer } : {}),
        ...(cmd.clientHash ? { clientHash: cmd.clientHash } : {}),
        startedAt: cmd.now,
      },
    },
  ];
};

/** Already captured: no event; the state names the order that capture created (idempotent retry). */
const captureCheckout = (
  cmd: Extract<CheckoutCommand, { type: 'CaptureCheckout' }>,
  state: CheckoutState,
): CheckoutEvent[] => {
  if (state.status === 'absent') throw new NotFoundError('Unknown PayPal order');
  if (state.status === 'captured') return [];
  const { capture } = cmd;
  if (capture.status !== 'COMPLETED' && capture.status !== 'PENDING') {
    throw new PaymentNotAcceptedError(
      `The payment was not completed (capture ${capture.status})`,
      'capture_status',
    );
  }
  if (capture.currency !== state.currency || exactCents(capture.amount) !== toCents(state.total)) {
    throw new PaymentNotAcceptedError(
      `The captured amount ${capture.amount} ${capture.currency} does not match the order total ${state.total} ${state.currency}`,
      'amount_mismatch',
    );
  }
  return [
    {
      type: 'CheckoutCaptured',
      data: {
        paypalOrderId: cmd.paypalOrderId,
        orderId: cmd.orderId,
        captureId: capture.id,
        captureStatus: capture.status,
        customer: cmd.customer,
        capturedAt: cmd.now,
      },
    },
  ];
};

export function decideCheckout(cmd: CheckoutCommand, state: CheckoutState): CheckoutEvent[] {
  switch (cmd.type) {
    case 'StartCheckout':
      return startCheckout(cmd, state);
    case 'CaptureCheckout':
      return captureCheckout(cmd, state);
    default: {
      const exhaustive: never = cmd;
      return exhaustive;
    }
  }
}
