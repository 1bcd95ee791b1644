import { handleCommand, type LoadedStream } from '@licensestore/domain/commands';
import { IllegalStateError } from '@licensestore/domain/errors';
import {
  type EventStore,
  type NewEventMetadata,
  type Position,
  WrongExpectedRevisionError,
} from '@licensestore/domain/events';
import type { CheckoutState, OrderCommand, PlacedOrder } from '@licensestore/domain/orders';
import { orderDecider, orderStream } from '@licensestore/domain/orders';
import { timeOrderedId } from '../ids/index.js';
import { type ReadScreeningHistory, screenCheckout, UNKNOWN_HISTORY } from './screening.js';

export * from './screening.js';

export interface CheckoutOrder {
  order: PlacedOrder;
  /** The order stream's latest position: what the read model must reach to show this order. */
  position: Position | null;
  /** This call appended the order; false when it existed already. */
  placed: boolean;
}

/**
 * The order a captured checkout becomes, appended if missing: the capture that recorded the checkout places it at
 * once, and a retried capture, a webhook or the workers' repair place it after a crash between the two appends.
 * Whoever appends it, the order is the customer's act, caused by the CheckoutCaptured event and carrying on its
 * correlation id, so one id follows a purchase from its capture request whichever path placed the order. `fresh`:
 * the caller has just recorded the capture, so the order stream cannot exist yet and is not read first.
 * `history`: what the risk rules read of the buyer's and the client address's earlier orders; the order is held
 * for review when they match it (only on the append that places it: an order placed already keeps its own fate).
 */
export async function placeCheckoutOrder(
  eventStore: EventStore,
  checkout: LoadedStream<CheckoutState>,
  options: { fresh?: boolean; history?: ReadScreeningHistory } = {},
): Promise<CheckoutOrder> {
  const captured = checkout.state;
  const cause = checkout.causes.get('CheckoutCaptured');
  if (captured.status !== 'captured' || !cause) {
    throw new IllegalStateError(`checkout is ${captured.status}, not captured: it places no order`);
  }
  const command: OrderCommand = {
    type: 'PlaceCapturedOrder',
    orderId: captured.orderId,
    paypalOrderId: captured.paypalOrderId,
    captureId: captured.captureId,
    captureStatus: captured.captureStatus,
    customer: captured.customer,
    lines: captured.lines.map((line) => ({ lineId: timeOrderedId(), ...line })),
    total: captured.total,
    currency: captured.currency,
    ...(captured.clientHash ? { clientHash: captured.clientHash } : {}),
    ...(await screenCheckout(eventStore, options.history ?? UNKNOWN_HISTORY, captured)),
    now: captured.capturedAt,
  };
  const metadata: NewEventMetadata = {
    actor: { type: 'customer', id: captured.customer.email },
    correlationId: cause.correlationId,
    causationId: cause.eventId,
  };
  const stream = orderStream(captured.orderId);
  if (options.fresh) {
    const events = orderDecider.decide(command, orderDecider.initialState);
    try {
      const appended = await eventStore.append(
        stream,
        events.map((event) => ({ type: event.type, data: event.data, metadata })),
        'no_stream',
      );
      const order = events.reduce(orderDecider.evolve, orderDecider.initialState) as PlacedOrder;
      return { order, position: appended.position, placed: true };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
    }
  }
  const result = await handleCommand(eventStore, stream, orderDecider, command, metadata);
  return { order: result.state as PlacedOrder, position: result.position, placed: result.events.length > 0 };
}
