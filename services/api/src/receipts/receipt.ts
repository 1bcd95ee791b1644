import {
  formatCents,
  type OrderLine,
  orderDecider,
  orderNumber,
  orderStream,
  parseOrderEvent,
  toCents,
} from '@licensestore/domain';
import type { EventStore } from '@licensestore/domain/events';

/** A refund on the receipt: money PayPal gave back, and when. */
export interface ReceiptRefund {
  amount: string;
  refundedAt: string;
}

/** Everything a receipt shows of its order, read from the order's own stream. */
export interface Receipt {
  receiptNumber: string;
  orderId: string;
  orderNumber: string;
  paidAt: string;
  captureId: string;
  customer: { name: string; email: string };
  lines: readonly OrderLine[];
  currency: string;
  total: string;
  /** Always 0.00: the store charges no sales tax or VAT on its prices. */
  tax: string;
  refunds: readonly ReceiptRefund[];
  /** The total less the refunds, never below zero. */
  netPaid: string;
}

export type ReceiptLookup =
  | { status: 'unknown order' }
  | { status: 'not issued'; order: { id: string; customerEmail: string; paid: boolean } }
  | { status: 'issued'; receipt: Receipt };

/**
 * The order's receipt from its stream: its number once issued, and the refunds PayPal completed on it (those the
 * store requested and those made in PayPal's own dashboard alike; a whole-order refund recorded before refunds had
 * their own events counts as the total).
 */
export async function findReceipt(eventStore: EventStore, orderId: string): Promise<ReceiptLookup> {
  let state = orderDecider.initialState;
  const refunds: ReceiptRefund[] = [];
  for await (const recorded of eventStore.readStream(orderStream(orderId))) {
    const event = parseOrderEvent(recorded.type, recorded.data);
    if (!event) continue;
    state = orderDecider.evolve(state, event);
    if (event.type === 'OrderRefundCompleted') {
      refunds.push({ amount: event.data.amount, refundedAt: event.data.completedAt });
    } else if (event.type === 'OrderRefunded' && state.status !== 'absent') {
      refunds.push({ amount: state.total, refundedAt: event.data.refundedAt });
    }
  }
  if (state.status === 'absent') return { status: 'unknown order' };
  const number = state.receipt?.number;
  if (!number || state.paidAt === null) {
    return {
      status: 'not issued',
      order: { id: state.orderId, customerEmail: state.customer.email, paid: state.paidAt !== null },
    };
  }
  const refunded = refunds.reduce((sum, refund) => sum + toCents(refund.amount), 0);
  return {
    status: 'issued',
    receipt: {
      receiptNumber: number,
      orderId: state.orderId,
      orderNumber: orderNumber(state.orderId),
      paidAt: state.paidAt,
      captureId: state.captureId,
      customer: state.customer,
      lines: state.lines,
      currency: state.currency,
      total: state.total,
      tax: '0.00',
      refunds,
      netPaid: formatCents(Math.max(0, toCents(state.total) - refunded)),
    },
  };
}
