import { IllegalStateError, NotFoundError } from '../errors/index.js';
import type { Customer, OrderEvent, OrderLine, OrderStatus } from './events.js';

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
  | { type: 'RefundOrder'; orderId: string; captureId: string; now: string }
  | { type: 'ChangeOrderStatus'; orderId: string; to: OrderStatus; now: string };

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
}

export type OrderState = { status: 'absent' } | PlacedOrder;

export const initialOrderState: OrderState = { status: 'absent' };

export function evolveOrder(state: OrderState, event: OrderEvent): OrderState {
  if (event.type === 'OrderCaptured') {
    const { data } = event;
    return {
      status: data.status,
      payment: data.status === 'pending' ? 'pending' : 'completed',
      orderId: data.orderId,
      paypalOrderId: data.paypalOrderId,
      captureId: data.captureId,
      customer: data.customer,
      lines: data.lines,
      total: data.total,
      currency: data.currency,
      createdAt: data.capturedAt,
    };
  }
  if (state.status === 'absent') return state;
  switch (event.type) {
    case 'OrderPaymentCompleted':
      return {
        ...state,
        payment: 'completed',
        status: state.status === 'pending' ? 'processing' : state.status,
      };
    case 'OrderPaymentDenied':
      return { ...state, payment: 'denied', status: 'cancelled' };
    case 'OrderRefunded':
      return { ...state, payment: 'refunded', status: 'refunded' };
    case 'OrderStatusChanged':
      return { ...state, status: event.data.to };
  }
}

const placed = (state: OrderState): PlacedOrder => {
  if (state.status === 'absent') throw new NotFoundError('Order not found');
  return state;
};

/** A payment event about another capture than the order's own is not about this order. */
const sameCapture = (state: PlacedOrder, captureId: string) => {
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

const refundOrder = (
  cmd: Extract<OrderCommand, { type: 'RefundOrder' }>,
  state: OrderState,
): OrderEvent[] => {
  const order = placed(state);
  sameCapture(order, cmd.captureId);
  if (order.payment === 'refunded' || order.payment === 'denied') return [];
  return [
    { type: 'OrderRefunded', data: { orderId: cmd.orderId, captureId: cmd.captureId, refundedAt: cmd.now } },
  ];
};

const changeOrderStatus = (
  cmd: Extract<OrderCommand, { type: 'ChangeOrderStatus' }>,
  state: OrderState,
): OrderEvent[] => {
  const order = placed(state);
  if (order.status === cmd.to) return [];
  return [
    {
      type: 'OrderStatusChanged',
      data: { orderId: cmd.orderId, from: order.status, to: cmd.to, changedAt: cmd.now },
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
    case 'RefundOrder':
      return refundOrder(cmd, state);
    case 'ChangeOrderStatus':
      return changeOrderStatus(cmd, state);
    default: {
      const exhaustive: never = cmd;
      return exhaustive;
    }
  }
}
