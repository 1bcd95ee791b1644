import { IllegalStateError, NotFoundError } from '../errors/index.js';
import type { AssignedKey } from '../license-keys/events.js';
import { toCents } from '../money/index.js';
import type { RiskRuleName } from '../risk/rules.js';
import type { Customer, OrderEvent, OrderLine, OrderStatus, OrderUnit, ReviewStatus } from './events.js';

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
      clientHash?: string;
      /** The risk rules the order matched: it is held for review unless none did (or none are named). */
      heldFor?: RiskRuleName[];
      /** When a held order is approved by the system if nobody decides before; null or absent: never. */
      autoApproveAt?: string | null;
      now: string;
    }
  | {
      type: 'RecordReviewEmailSent';
      orderId: string;
      trigger: string;
      recipient: string;
      messageId: string;
      now: string;
    }
  | { type: 'ApproveOrder'; orderId: string; automatic: boolean; now: string }
  | {
      type: 'RejectOrder';
      orderId: string;
      /** The id of the full refund the rejection requests (also its PayPal-Request-Id). */
      refundId: string;
      reason: string;
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
  | { type: 'RecordLicenseKeys'; orderId: string; lineId: string; keys: AssignedKey[]; now: string }
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

/** The command of one type, as the decision that handles it takes it. */
export type OrderCommandOf<Type extends OrderCommand['type']> = Extract<OrderCommand, { type: Type }>;

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
  /** Where a review by the risk rules stands; null for an order they never held. */
  review: ReviewStatus | null;
  /** Ids of the events (a hold, a rejection) whose e-mail to the buyer has been sent. */
  reviewEmailsSent: readonly string[];
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

/** A refund the store asked PayPal for, as the order remembers it. */
export interface RefundRecord {
  refundId: string;
  units: readonly OrderUnit[];
  cents: number;
  status: 'requested' | 'completed' | 'failed';
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
      review: null,
      reviewEmailsSent: [],
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
    case 'OrderHeldForReview':
      return { ...state, review: 'held' };
    case 'OrderApproved':
      return { ...state, review: 'approved' };
    case 'OrderRejected':
      return { ...state, review: 'rejected' };
    case 'OrderReviewEmailSent':
      return { ...state, reviewEmailsSent: [...state.reviewEmailsSent, event.data.trigger] };
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
