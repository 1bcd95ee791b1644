import { IllegalStateError, NotFoundError } from '../errors/index.js';
import type { AssignedKey } from '../licence-keys/events.js';
import { toCents } from '../money/index.js';
import { receiptYear } from '../receipts/numbering.js';
import type { Customer, OrderEvent, OrderLine, OrderStatus, OrderUnit } from './events.js';
import { orderNumber } from './order-number.js';
import { completeOrderRefund, failOrderRefund, type RefundRecord, refundOrderUnits } from './refunds.js';
import { liveUnits } from './units.js';

export type OrderCommand =
  | {
      type: 'PlaceCapturedOrder';
      orderId: string;
      paypalOrderId: string;
      captureId: string;
      captureStatus: 'COMPLETED' | 'PENDING';
      customer: Customer;
      lines: OrderLine[];
      total: string;
      currency: 'USD';
      now: string;
    }
  | { type: 'CompleteOrderPayment'; orderId: string; captureId: string; now: string }
  | { type: 'DenyOrderPayment'; orderId: string; captureId: string; now: string }
  | {
      type: 'RefundOrderUnits';
      orderId: string;
      /** Also the PayPal-Request-Id of the refund. */
      refundId: string;
      /** The units to refund, or every unit still the customer's. */
      units: OrderUnit[] | 'all';
      reason: string;
      now: string;
    }
  | {
      type: 'CompleteOrderRefund';
      orderId: string;
      captureId: string;
      /** The store's refund PayPal completed; null for one made in PayPal's own dashboard. */
      refundId: string | null;
      paypalRefundId: string;
      /** What PayPal refunded. */
      amount: string;
      now: string;
    }
  | { type: 'FailOrderRefund'; orderId: string; refundId: string; code: string; message: string; now: string }
  | { type: 'ChangeOrderStatus'; orderId: string; to: OrderStatus; now: string }
  | { type: 'RecordLicenceKeys'; orderId: string; lineId: string; keys: AssignedKey[]; now: string }
  | { type: 'RequestDeliveryEmailResend'; orderId: string; now: string }
  | {
      type: 'RecordDeliveryEmailSent';
      orderId: string;
      trigger: string;
      recipient: string;
      messageId: string;
      now: string;
    }
  | {
      type: 'RequestReceipt';
      orderId: string;
      year: number;
      receiptsAfterRevision: number | null;
      now: string;
    }
  | { type: 'IssueReceipt'; orderId: string; receiptNumber: string; now: string };

/** Where the money stands, apart from the status an admin may set: payment changes only move forward. */
export type PaymentState = 'pending' | 'completed' | 'denied' | 'refunded';

export interface PlacedOrder {
  status: OrderStatus;
  payment: PaymentState;
  orderId: string;
  paypalOrderId: string;
  captureId: string;
  customer: Customer;
  lines: OrderLine[];
  total: string;
  currency: 'USD';
  createdAt: string;
  /** Keys each line has received, by line id. */
  keys: Readonly<Record<string, readonly AssignedKey[]>>;
  /**
   * Key ids each line gave up when the order was reopened after a cancel, by line id: never the customer's again,
   * and given back to the inventory (which decides nothing for a key it took back already).
   */
  keysGivenUp: Readonly<Record<string, readonly string[]>>;
  /** Every unit has its key. */
  fulfilled: boolean;
  /** Ids of the events whose delivery email has been sent (OrderFulfilled, resend requests). */
  emailsSent: readonly string[];
  /**
   * Keys that left the store: in a delivery email the mail server accepted, or shown in clear. Such a key is
   * revoked when its unit is refunded or cancelled; any other goes back to stock.
   */
  keysOutOfStore: readonly string[];
  /** When the money was taken (a COMPLETED capture, or a PENDING one completing); null while it is not. */
  paidAt: string | null;
  /** Its receipt: requested (number null) once paid, then its number from the year's receipts stream. */
  receipt: OrderReceipt | null;
  /** Refunds the store asked PayPal for, oldest first. */
  refunds: readonly RefundRecord[];
  /** Units whose refund completed (ours or PayPal dashboard ones); they are no longer the customer's. */
  refundedUnits: readonly OrderUnit[];
  /** Money PayPal refunded on the capture, in cents. */
  refundedCents: number;
  /** PayPal's ids of the refunds recorded: news of one of them again changes nothing. */
  paypalRefundIds: readonly string[];
}

export interface OrderReceipt {
  year: number;
  receiptsAfterRevision: number | null;
  number: string | null;
}

export type OrderState = { status: 'absent' } | PlacedOrder;

export const initialOrderState: OrderState = { status: 'absent' };

export function evolveOrder(state: OrderState, event: OrderEvent): OrderState {
  if (event.type === 'OrderCaptured') {
    const { data } = event;
    return {
      status: data.status,
      payment: data.captureStatus === 'PENDING' ? 'pending' : 'completed',
      orderId: data.orderId,
      paypalOrderId: data.paypalOrderId,
      captureId: data.captureId,
      customer: data.customer,
      lines: data.lines,
      total: data.total,
      currency: data.currency,
      createdAt: data.capturedAt,
      keys: {},
      keysGivenUp: {},
      fulfilled: false,
      emailsSent: [],
      keysOutOfStore: [],
      paidAt: data.captureStatus === 'COMPLETED' ? data.capturedAt : null,
      receipt: null,
      refunds: [],
      refundedUnits: [],
      refundedCents: 0,
      paypalRefundIds: [],
    };
  }
  if (state.status === 'absent') return state;
  switch (event.type) {
    case 'OrderPaymentCompleted':
      return {
        ...state,
        payment: 'completed',
        status: state.status === 'pending' ? 'processing' : state.status,
        paidAt: event.data.completedAt,
      };
    case 'OrderPaymentDenied':
      return { ...state, payment: 'denied', status: 'cancelled' };
    case 'OrderRefunded':
      return { ...state, payment: 'refunded', status: 'refunded' };
    case 'OrderStatusChanged':
      return { ...state, status: event.data.to };
    case 'OrderReopened':
      return { ...state, ...withKeysGivenUp(state, event.data.keysGivenUp), fulfilled: false };
    case 'OrderLicenceKeysAssigned': {
      const { lineId, keys } = event.data;
      return { ...state, keys: { ...state.keys, [lineId]: [...(state.keys[lineId] ?? []), ...keys] } };
    }
    case 'OrderFulfilled':
      return {
        ...state,
        fulfilled: true,
        status: state.status === 'processing' ? 'completed' : state.status,
      };
    case 'DeliveryEmailResendRequested':
      return state;
    case 'DeliveryEmailSent':
      return {
        ...state,
        emailsSent: [...state.emailsSent, event.data.trigger],
        keysOutOfStore: withKeys(
          state.keysOutOfStore,
          Object.values(state.keys)
            .flat()
            .map((key) => key.keyId),
        ),
      };
    case 'LicenceKeysRevealed':
      return { ...state, keysOutOfStore: withKeys(state.keysOutOfStore, event.data.keyIds) };
    case 'OrderRefundRequested': {
      const { refundId, units, amount } = event.data;
      const record: RefundRecord = { refundId, units, cents: toCents(amount), status: 'requested' };
      return { ...state, refunds: [...state.refunds, record] };
    }
    case 'OrderRefundCompleted': {
      const { refundId, units, amount, paypalRefundId } = event.data;
      const refundedCents = state.refundedCents + toCents(amount);
      return {
        ...state,
        refunds: withRefundStatus(state.refunds, refundId, 'completed'),
        refundedUnits: [...state.refundedUnits, ...units],
        refundedCents,
        paypalRefundIds: [...state.paypalRefundIds, paypalRefundId],
        payment: refundedCents >= toCents(state.total) ? 'refunded' : state.payment,
      };
    }
    case 'OrderRefundFailed':
      return { ...state, refunds: withRefundStatus(state.refunds, event.data.refundId, 'failed') };
    case 'OrderReceiptRequested':
      return {
        ...state,
        receipt: {
          year: event.data.year,
          receiptsAfterRevision: event.data.receiptsAfterRevision,
          number: null,
        },
      };
    case 'OrderReceiptIssued':
      return state.receipt
        ? { ...state, receipt: { ...state.receipt, number: event.data.receiptNumber } }
        : state;
  }
}

const withRefundStatus = (
  refunds: readonly RefundRecord[],
  refundId: string | null,
  status: RefundRecord['status'],
) => refunds.map((refund) => (refund.refundId === refundId ? { ...refund, status } : refund));

/** The order without the keys given up, which join those it gave up before. */
function withKeysGivenUp(state: PlacedOrder, givenUp: readonly { lineId: string; keyId: string }[]) {
  const gone = new Set(givenUp.map((unit) => unit.keyId));
  const keysGivenUp: Record<string, readonly string[]> = { ...state.keysGivenUp };
  for (const { lineId, keyId } of givenUp) keysGivenUp[lineId] = [...(keysGivenUp[lineId] ?? []), keyId];
  const keys = Object.fromEntries(
    Object.entries(state.keys).flatMap(([lineId, held]) => {
      const kept = held.filter((key) => !gone.has(key.keyId));
      return kept.length === 0 ? [] : [[lineId, kept]];
    }),
  );
  return { keys, keysGivenUp };
}

const withKeys = (held: readonly string[], keyIds: readonly string[]) => [...new Set([...held, ...keyIds])];

/** Live units of the order (not refunded) still without a key. */
export const unitsAwaitingKeys = (order: PlacedOrder) =>
  liveUnits(order).filter((unit) => unit.keyId === null).length;

export const placed = (state: OrderState): PlacedOrder => {
  if (state.status === 'absent') throw new NotFoundError('Order not found');
  return state;
};

/** A payment event about another capture than the order's own is not about this order. */
export const sameCapture = (state: PlacedOrder, captureId: string) => {
  if (state.captureId !== captureId) {
    throw new IllegalStateError(
      `order ${state.orderId} was paid by capture ${state.captureId}, not ${captureId}`,
    );
  }
};

const placeCapturedOrder = (
  cmd: Extract<OrderCommand, { type: 'PlaceCapturedOrder' }>,
  state: OrderState,
): OrderEvent[] => {
  // The checkout stream decided which order this capture is; placing it again (a repair retry) adds nothing.
  if (state.status !== 'absent') return [];
  return [
    {
      type: 'OrderCaptured',
      data: {
        orderId: cmd.orderId,
        paypalOrderId: cmd.paypalOrderId,
        captureId: cmd.captureId,
        captureStatus: cmd.captureStatus,
        customer: cmd.customer,
        lines: cmd.lines,
        total: cmd.total,
        currency: cmd.currency,
        status: cmd.captureStatus === 'COMPLETED' ? 'processing' : 'pending',
        capturedAt: cmd.now,
      },
    },
  ];
};

const completeOrderPayment = (
  cmd: Extract<OrderCommand, { type: 'CompleteOrderPayment' }>,
  state: OrderState,
): OrderEvent[] => {
  const order = placed(state);
  sameCapture(order, cmd.captureId);
  if (order.payment !== 'pending') return [];
  return [
    {
      type: 'OrderPaymentCompleted',
      data: { orderId: cmd.orderId, captureId: cmd.captureId, completedAt: cmd.now },
    },
  ];
};

const denyOrderPayment = (
  cmd: Extract<OrderCommand, { type: 'DenyOrderPayment' }>,
  state: OrderState,
): OrderEvent[] => {
  const order = placed(state);
  sameCapture(order, cmd.captureId);
  if (order.payment !== 'pending') return [];
  return [
    {
      type: 'OrderPaymentDenied',
      data: { orderId: cmd.orderId, captureId: cmd.captureId, deniedAt: cmd.now },
    },
  ];
};

const changeOrderStatus = (
  cmd: Extract<OrderCommand, { type: 'ChangeOrderStatus' }>,
  state: OrderState,
): OrderEvent[] => {
  const order = placed(state);
  if (order.status === cmd.to) return [];
  // The money of a refunded order went back to the buyer: there is nothing left to serve it for.
  if (order.status === 'refunded') {
    throw new IllegalStateError(
      `Order ${orderNumber(order.orderId)} is ${order.status}: its license keys were released, so it cannot be reopened.`,
    );
  }
  const changed: OrderEvent = {
    type: 'OrderStatusChanged',
    data: { orderId: cmd.orderId, from: order.status, to: cmd.to, changedAt: cmd.now },
  };
  return order.status === 'cancelled' ? [reopenOrder(order, cmd.now), changed] : [changed];
};

/**
 * A cancelled order set to any other status is served again as a paid one is: it gives up the keys it held (they
 * were revoked or went back to stock when it was cancelled) and is owed new ones for its units still the customer's.
 * Only an order whose money the store keeps can be: a denied payment took none, a refund gave it back.
 */
function reopenOrder(order: PlacedOrder, now: string): OrderEvent {
  const number = orderNumber(order.orderId);
  if (order.payment === 'denied') {
    throw new IllegalStateError(
      `Order ${number} is cancelled: its payment was denied by PayPal, so no money was taken and it cannot be reopened.`,
    );
  }
  if (order.payment === 'refunded') {
    throw new IllegalStateError(
      `Order ${number} is cancelled and its money was refunded to the buyer, so it cannot be reopened.`,
    );
  }
  const keysGivenUp = Object.entries(order.keys).flatMap(([lineId, keys]) =>
    keys.map((key) => ({ lineId, keyId: key.keyId })),
  );
  return { type: 'OrderReopened', data: { orderId: order.orderId, keysGivenUp, reopenedAt: now } };
}

const recordLicenceKeys = (
  cmd: Extract<OrderCommand, { type: 'RecordLicenceKeys' }>,
  state: OrderState,
): OrderEvent[] => {
  const order = placed(state);
  const line = order.lines.find((candidate) => candidate.lineId === cmd.lineId);
  if (!line) throw new IllegalStateError(`order ${order.orderId} has no line ${cmd.lineId}`);
  const held = new Set((order.keys[line.lineId] ?? []).map((key) => key.keyId));
  const givenUp = new Set(order.keysGivenUp[line.lineId] ?? []);
  // Recording the same assignment again (a retried job) adds nothing, nor does one of a key the order gave up.
  const keys = cmd.keys.filter((key) => !held.has(key.keyId) && !givenUp.has(key.keyId));
  if (keys.length === 0) return [];
  if (held.size + keys.length > line.quantity) {
    throw new IllegalStateError(
      `line ${line.lineId} of order ${order.orderId} needs ${line.quantity} keys, not more`,
    );
  }
  const assigned: OrderEvent = {
    type: 'OrderLicenceKeysAssigned',
    data: { orderId: order.orderId, lineId: line.lineId, keys, assignedAt: cmd.now },
  };
  const after = evolveOrder(order, assigned) as PlacedOrder;
  if (after.fulfilled || unitsAwaitingKeys(after) > 0) return [assigned];
  return [assigned, { type: 'OrderFulfilled', data: { orderId: order.orderId, fulfilledAt: cmd.now } }];
};

const requestDeliveryEmailResend = (
  cmd: Extract<OrderCommand, { type: 'RequestDeliveryEmailResend' }>,
  state: OrderState,
): OrderEvent[] => {
  const order = placed(state);
  if (order.status === 'cancelled' || order.status === 'refunded') {
    throw new IllegalStateError(
      `Order ${orderNumber(order.orderId)} is ${order.status}: its license keys are not sent again.`,
    );
  }
  if (!order.fulfilled) {
    throw new IllegalStateError(
      `Order ${orderNumber(order.orderId)} is still waiting for license keys; ` +
        'its delivery email goes out as soon as every key is assigned.',
    );
  }
  return [{ type: 'DeliveryEmailResendRequested', data: { orderId: order.orderId, requestedAt: cmd.now } }];
};

const recordDeliveryEmailSent = (
  cmd: Extract<OrderCommand, { type: 'RecordDeliveryEmailSent' }>,
  state: OrderState,
): OrderEvent[] => {
  const order = placed(state);
  if (order.emailsSent.includes(cmd.trigger)) return [];
  return [
    {
      type: 'DeliveryEmailSent',
      data: {
        orderId: order.orderId,
        trigger: cmd.trigger,
        recipient: cmd.recipient,
        messageId: cmd.messageId,
        sentAt: cmd.now,
      },
    },
  ];
};

const requestReceipt = (
  cmd: Extract<OrderCommand, { type: 'RequestReceipt' }>,
  state: OrderState,
): OrderEvent[] => {
  const order = placed(state);
  if (order.paidAt === null) {
    throw new IllegalStateError(
      `order ${order.orderId} is not paid (payment ${order.payment}): it has no receipt`,
    );
  }
  // Asked already (a retried or concurrent job): the first request's place in the year's stream stands.
  if (order.receipt) return [];
  const year = receiptYear(order.paidAt);
  if (cmd.year !== year) {
    throw new IllegalStateError(
      `order ${order.orderId} was paid in ${year}: its receipt is not one of ${cmd.year}`,
    );
  }
  return [
    {
      type: 'OrderReceiptRequested',
      data: {
        orderId: order.orderId,
        year,
        receiptsAfterRevision: cmd.receiptsAfterRevision,
        requestedAt: cmd.now,
      },
    },
  ];
};

const issueReceipt = (
  cmd: Extract<OrderCommand, { type: 'IssueReceipt' }>,
  state: OrderState,
): OrderEvent[] => {
  const order = placed(state);
  if (!order.receipt)
    throw new IllegalStateError(`order ${order.orderId} has not asked for a receipt number`);
  if (order.receipt.number === cmd.receiptNumber) return [];
  if (order.receipt.number !== null) {
    throw new IllegalStateError(
      `order ${order.orderId} holds receipt ${order.receipt.number}; it cannot also be ${cmd.receiptNumber}`,
    );
  }
  return [
    {
      type: 'OrderReceiptIssued',
      data: { orderId: order.orderId, receiptNumber: cmd.receiptNumber, issuedAt: cmd.now },
    },
  ];
};

export function decideOrder(cmd: OrderCommand, state: OrderState): OrderEvent[] {
  switch (cmd.type) {
    case 'PlaceCapturedOrder':
      return placeCapturedOrder(cmd, state);
    case 'CompleteOrderPayment':
      return completeOrderPayment(cmd, state);
    case 'DenyOrderPayment':
      return denyOrderPayment(cmd, state);
    case 'RefundOrderUnits':
      return refundOrderUnits(cmd, placed(state));
    case 'CompleteOrderRefund':
      return completeOrderRefund(cmd, placed(state));
    case 'FailOrderRefund':
      return failOrderRefund(cmd, placed(state));
    case 'ChangeOrderStatus':
      return changeOrderStatus(cmd, state);
    case 'RecordLicenceKeys':
      return recordLicenceKeys(cmd, state);
    case 'RequestDeliveryEmailResend':
      return requestDeliveryEmailResend(cmd, state);
    case 'RecordDeliveryEmailSent':
      return recordDeliveryEmailSent(cmd, state);
    case 'RequestReceipt':
      return requestReceipt(cmd, state);
    case 'IssueReceipt':
      return issueReceipt(cmd, state);
    default: {
      const exhaustive: never = cmd;
      return exhaustive;
    }
  }
}
