import type { Decider } from '../commands/index.js';
import {
  type CheckoutCommand,
  type CheckoutState,
  decideCheckout,
  evolveCheckout,
  initialCheckoutState,
} from './checkout.js';
import { decideOrder } from './decider.js';
import { type CheckoutEvent, type OrderEvent, parseCheckoutEvent, parseOrderEvent } from './events.js';
import { evolveOrder, initialOrderState, type OrderCommand, type OrderState } from './order.js';

export * from './checkout.js';
export * from './custody.js';
export * from './customer.js';
export * from './customer-email-key.js';
export * from './decider.js';
export * from './events.js';
export * from './order.js';
export * from './order-number.js';
export * from './pricing.js';
export * from './units.js';
export type * from './views.js';

/** `checkout-<paypalOrderId>`: the server-priced cart, and which order its capture became. */
export const checkoutDecider: Decider<CheckoutCommand, CheckoutState, CheckoutEvent> = {
  initialState: initialCheckoutState,
  decide: decideCheckout,
  evolve: evolveCheckout,
  parse: parseCheckoutEvent,
};

/** `order-<uuid>`: the order a capture placed, its payment and its status. */
export const orderDecider: Decider<OrderCommand, OrderState, OrderEvent> = {
  initialState: initialOrderState,
  decide: decideOrder,
  evolve: evolveOrder,
  parse: parseOrderEvent,
};
