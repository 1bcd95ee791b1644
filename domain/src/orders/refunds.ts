import { IllegalStateError } from '../errors/index.js';
import { formatCents, toCents } from '../money/index.js';
import type { OrderEvent, OrderUnit } from './events.js';
import { evolveOrder, type OrderCommandOf, type PlacedOrder, sameCapture } from './order.js';
import { orderNumber } from './order-number.js';
import { liveUnits, takeUnits, unitsAwaitingKeys } from './units.js';

const inFlight = (order: PlacedOrder) => order.refunds.filter((refund) => refund.status === 'requested');

/** Live units no refund in flight claims: what a new refund may take. */
const refundableUnits = (order: PlacedOrder) =>
  takeUnits(
    inFlight(order).flatMap((refund) => refund.units),
    liveUnits(order),
  ).rest;

/** Money of the capture not yet refunded nor claimed by a refund in flight. */
const refundableCents = (order: PlacedOrder) =>
  toCents(order.total) - order.refundedCents - inFlight(order).reduce((sum, refund) => sum + refund.cents, 0);

const unitPriceCents = (order: PlacedOrder, lineId: string) =>
  toCents(order.lines.find((line) => line.lineId === lineId)?.unitPrice ?? '0');

/** Only money PayPal holds as taken can go back: a capture under review or denied has none to refund. */
function assertRefundablePayment(order: PlacedOrder) {
  const number = orderNumber(order.orderId);
  if (order.payment === 'pending') {
    throw new IllegalStateError(
      `The payment of order ${number} is still under review at PayPal (capture pending): it can be refunded once PayPal completes it.`,
    );
  }
  if (order.payment === 'denied') {
    throw new IllegalStateError(`The payment of order ${number} was denied: no money was taken.`);
  }
  if (order.payment === 'refunded') {
    throw new IllegalStateError(`Order ${number} has been refunded in full.`);
  }
}

const describeUnit = (order: PlacedOrder, unit: OrderUnit) => {
  const name = order.lines.find((line) => line.lineId === unit.lineId)?.productName ?? `line ${unit.lineId}`;
  return unit.keyId === null ? `${name} (unit without a key)` : `${name} (key ${unit.keyId.slice(0, 8)})`;
};

/**
 * An admin refunds chosen units (or every unit still the customer's): checked against the order before any money
 * moves, priced from the lines' unit prices, never more than PayPal still holds.
 */
export function refundOrderUnits(cmd: OrderCommandOf<'RefundOrderUnits'>, order: PlacedOrder): OrderEvent[] {
  // The same request again (a retried call) is the refund already requested.
  if (order.refunds.some((refund) => refund.refundId === cmd.refundId)) return [];
  assertRefundablePayment(order);
  const refundable = refundableUnits(order);
  const units = cmd.units === 'all' ? refundable : cmd.units;
  if (units.length === 0) {
    throw new IllegalStateError(
      `Every unit of order ${orderNumber(order.orderId)} is refunded or in a refund in progress.`,
    );
  }
  const { missing } = takeUnits(units, refundable);
  if (missing.length > 0) {
    const claimed = takeUnits(missing, liveUnits(order)).missing.length === 0;
    throw new IllegalStateError(
      `${missing.map((unit) => describeUnit(order, unit)).join(', ')} cannot be refunded: ${
        claimed ? 'a refund of it is in progress' : 'it is not a unit of this order still to refund'
      }.`,
    );
  }
  const priced = units.reduce((sum, unit) => sum + unitPriceCents(order, unit.lineId), 0);
  const cents = Math.min(priced, refundableCents(order));
  if (cents <= 0) {
    throw new IllegalStateError(
      `PayPal holds no more money of order ${orderNumber(order.orderId)} to refund.`,
    );
  }
  return [
    {
      type: 'OrderRefundRequested',
      data: {
        orderId: order.orderId,
        refundId: cmd.refundId,
        captureId: order.captureId,
        units,
        amount: formatCents(cents),
        reason: cmd.reason,
        requestedAt: cmd.now,
      },
    },
  ];
}

/**
 * The units a refund made in PayPal's dashboard covers: every live unit when it refunds all the money left, else
 * as many units of one line as its amount pays for exactly (keyless units first, then the latest keys); an amount
 * no line's units make up is a refund of money only.
 */
function unitsForAmount(order: PlacedOrder, cents: number): OrderUnit[] {
  const live = liveUnits(order);
  if (cents >= toCents(order.total) - order.refundedCents) return live;
  const candidates = refundableUnits(order);
  for (const line of order.lines) {
    const price = toCents(line.unitPrice);
    const onLine = candidates.filter((unit) => unit.lineId === line.lineId).reverse();
    if (price > 0 && cents % price === 0 && cents / price <= onLine.length)
      return onLine.slice(0, cents / price);
  }
  return [];
}

/**
 * PayPal completed a refund on the order's capture: one the store requested (its units), or one made in PayPal's
 * dashboard (the units its amount covers). Refunding the last unit makes the order refunded; refunding the last
 * units still waiting for keys leaves the others delivered.
 */
export function completeOrderRefund(
  cmd: OrderCommandOf<'CompleteOrderRefund'>,
  order: PlacedOrder,
): OrderEvent[] {
  sameCapture(order, cmd.captureId);
  if (order.paypalRefundIds.includes(cmd.paypalRefundId)) return [];
  const ours = order.refunds.find((refund) => refund.refundId === cmd.refundId);
  if (ours?.status === 'completed') return [];
  const units = ours
    ? ours.units.filter((unit) => takeUnits([unit], liveUnits(order)).missing.length === 0)
    : unitsForAmount(order, toCents(cmd.amount));
  const completed: OrderEvent = {
    type: 'OrderRefundCompleted',
    data: {
      orderId: order.orderId,
      refundId: ours ? ours.refundId : null,
      paypalRefundId: cmd.paypalRefundId,
      units: [...units],
      amount: formatCents(toCents(cmd.amount)),
      completedAt: cmd.now,
    },
  };
  const after = evolveOrder(order, completed) as PlacedOrder;
  if (liveUnits(after).length === 0) {
    if (order.status === 'refunded') return [completed];
    return [
      completed,
      {
        type: 'OrderStatusChanged',
        data: { orderId: order.orderId, from: order.status, to: 'refunded', changedAt: cmd.now },
      },
    ];
  }
  if (!after.fulfilled && unitsAwaitingKeys(after) === 0) {
    return [completed, { type: 'OrderFulfilled', data: { orderId: order.orderId, fulfilledAt: cmd.now } }];
  }
  return [completed];
}

/** PayPal refused a requested refund: its units stay sold, free for another refund. */
export function failOrderRefund(cmd: OrderCommandOf<'FailOrderRefund'>, order: PlacedOrder): OrderEvent[] {
  const ours = order.refunds.find((refund) => refund.refundId === cmd.refundId);
  if (ours?.status !== 'requested') return [];
  return [
    {
      type: 'OrderRefundFailed',
      data: {
        orderId: order.orderId,
        refundId: cmd.refundId,
        code: cmd.code,
        message: cmd.message,
        failedAt: cmd.now,
      },
    },
  ];
}
