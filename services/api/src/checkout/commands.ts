import { randomUUID } from 'node:crypto';
import {
  buyerSchema,
  type CartItem,
  type CheckoutCommand,
  type CheckoutState,
  type Customer,
  checkoutDecider,
  checkoutStream,
  decideCheckout,
  NotFoundError,
  type OrderCommand,
  orderDecider,
  orderStream,
  PaymentNotAcceptedError,
  type PlacedOrder,
  type PricedCart,
  payerAsBuyer,
  priceCart,
  toCents,
  ValidationError,
} from '@licensestore/domain';
import { handleCommand, type LoadedStream, loadStream } from '@licensestore/domain/commands';
import {
  type Actor,
  type EventStore,
  type NewEventMetadata,
  type Position,
  WrongExpectedRevisionError,
} from '@licensestore/domain/events';
import { makeStorable } from '@licensestore/domain/text';
import { placeCheckoutOrder, readModelHistory } from '@licensestore/platform/checkout-orders';
import type { DatabaseHandle } from '@licensestore/platform/db';
import { timeOrderedId } from '@licensestore/platform/ids';
import type { Logger } from '@licensestore/platform/logging';
import type pg from 'pg';
import { firstCapture, PayPalError, type PaypalClient, type PaypalOrder } from '../payments/index.js';
import { acquireCaptureLock } from './capture-lock.js';
import { loadCatalogueEntries } from './catalogue.js';
import { PaymentIssueError } from './errors.js';

export interface CheckoutDeps {
  eventStore: EventStore;
  database: DatabaseHandle;
  paypal: PaypalClient;
  logger: Logger;
  /** Connections for capture locks, held while PayPal captures; defaults to the database pool. */
  captureLocks?: pg.Pool;
  /** Injected so tests can hold time still; defaults to the wall clock. */
  now?: () => Date;
}

/** Who asked, and which request (or webhook event) caused the events. */
export interface CommandContext {
  actor: Actor;
  correlationId: string;
  causationId: string;
}

const metadata = (context: CommandContext): NewEventMetadata => ({
  actor: context.actor,
  correlationId: context.correlationId,
  causationId: context.causationId,
});

const nowIso = (deps: CheckoutDeps) => (deps.now?.() ?? new Date()).toISOString();

/** Derived from the order, never random: a retried capture replays PayPal's first answer instead of capturing twice. */
export const captureRequestId = (paypalOrderId: string) => `capture-${paypalOrderId}`;

const PAYPAL_NAME_MAX = 127;
/** PayPal's capture ids are 17 characters; a longer one is still stored, within reason. */
const CAPTURE_ID_MAX = 200;

// ---------------------------------------------------------------------------------------------------------------
// Start: price on the server, create the PayPal order from that price, record it.

export interface StartCheckoutInput {
  items: CartItem[];
  /** What the browser believes the total is; it must agree to the cent, and it is never what gets charged. */
  amount: string;
  /** Shown in PayPal's records next to the order (the request's correlation id). */
  customId: string;
  /** The buyer the browser names before paying, already checked: who the order is for if the browser goes away. */
  customer?: Customer;
  /** The starting browser's hashed address, which the velocity rules count orders by. */
  clientHash: string;
}

export async function startCheckout(
  deps: CheckoutDeps,
  input: StartCheckoutInput,
  context: CommandContext,
): Promise<{ paypalOrderId: string; cart: PricedCart }> {
  const ids = [...new Set(input.items.map((item) => item.productId))];
  const catalogue = await loadCatalogueEntries(deps.database.db, deps.eventStore, ids);
  const cart = priceCart(input.items, (id) => catalogue.get(id) ?? { status: 'unknown' });
  if (toCents(input.amount) !== cart.totalCents) {
    throw new ValidationError(
      `The cart total changed: the store prices it at ${cart.total} ${cart.currency}, not ${input.amount}. ` +
        'Please review your cart.',
    );
  }
  const money = (value: string) => ({ currency_code: cart.currency, value });
  let paypalOrder: PaypalOrder;
  try {
    paypalOrder = await deps.paypal.createOrder({
      intent: 'CAPTURE',
      purchase_units: [
        {
          custom_id: input.customId.slice(0, PAYPAL_NAME_MAX),
          amount: { ...money(cart.total), breakdown: { item_total: money(cart.total) } },
          items: cart.lines.map((line) => ({
            name: line.productName.slice(0, PAYPAL_NAME_MAX),
            sku: line.productId,
            quantity: String(line.quantity),
            unit_amount: money(line.unitPrice),
            category: 'DIGITAL_GOODS',
          })),
        },
      ],
    });
  } catch (error) {
    throw providerFailure(deps.logger, error, 'creating the PayPal order');
  }
  // A PayPal order id is new: nothing to read first, and 'no_stream' refuses an id PayPal handed out twice.
  const events = decideCheckout(
    {
      type: 'StartCheckout',
      paypalOrderId: paypalOrder.id,
      lines: cart.lines,
      total: cart.total,
      currency: cart.currency,
      customer: input.customer,
      clientHash: input.clientHash,
      now: nowIso(deps),
    },
    checkoutDecider.initialState,
  );
  await deps.eventStore.append(
    checkoutStream(paypalOrder.id),
    events.map((event) => ({ type: event.type, data: event.data, metadata: metadata(context) })),
    'no_stream',
  );
  return { paypalOrderId: paypalOrder.id, cart };
}

// ---------------------------------------------------------------------------------------------------------------
// Capture: one order per PayPal order, however often and however concurrently it is asked for.

/**
 * The buyer as the browser names them (checked before PayPal is asked), or (webhook reconciliation of a checkout
 * whose browser named nobody) as PayPal's payer record does: read from PayPal's answer once the money has moved, and
 * made storable (payerAsBuyer), never refused.
 */
export type CustomerSource = Customer | ((order: PaypalOrder) => { name?: string; email?: string });

export interface CaptureResult {
  order: PlacedOrder;
  /** The order stream's latest position: what the read model must reach to show this order. */
  position: Position | null;
  /** This very call recorded the capture (the order is new); false when an earlier capture had. */
  recorded: boolean;
}

/** The order a captured checkout becomes, screened by the risk rules against the orders read model. */
const placeOrder = (deps: CheckoutDeps, checkout: LoadedStream<CheckoutState>, fresh = false) =>
  placeCheckoutOrder(deps.eventStore, checkout, { fresh, history: readModelHistory(deps.database.db) });

/**
 * Everything a capture stores is storable before PayPal is asked to move money: the browser's buyer is checked here
 * (a 400, the PayPal order still capturable), and what PayPal's answer adds (the payer, the capture id) is made
 * storable, never refused, once the money has moved.
 */
export async function captureCheckout(
  deps: CheckoutDeps,
  paypalOrderId: string,
  source: CustomerSource,
  context: CommandContext,
  options: { waitForLock?: boolean } = {},
): Promise<CaptureResult> {
  const customer = typeof source === 'function' ? source : checkedBuyer(source);
  const stream = checkoutStream(paypalOrderId);
  let checkout = await loadStream(deps.eventStore, stream, checkoutDecider);
  if (checkout.state.status === 'absent') throw new NotFoundError('Unknown PayPal order');
  if (checkout.state.status === 'captured') {
    return { ...(await placeOrder(deps, checkout)), recorded: false };
  }

  const lock = await acquireCaptureLock(deps.captureLocks ?? deps.database.pool, paypalOrderId, {
    wait: options.waitForLock ?? true,
  });
  if (!lock)
    throw new PaymentIssueError(503, 'A capture of this PayPal order is in progress; try again shortly.');
  let recorded = false;
  try {
    // Another capture finished while this one waited: its order is the answer. (One finishing in the instant
    // between the read above and a lock taken at once is caught by the expected revision instead.)
    if (lock.waited) checkout = await loadStream(deps.eventStore, stream, checkoutDecider);
    if (checkout.state.status === 'started') {
      ({ checkout, recorded } = await recordCapture(deps, paypalOrderId, checkout, customer, context));
    }
  } finally {
    await lock.release();
  }
  // The order the capture became, appended if missing; `fresh`: this very call recorded the capture.
  return { ...(await placeOrder(deps, checkout, recorded)), recorded };
}

/** The browser's buyer as the order will store it (NFC, trimmed), or a 400 saying what cannot be stored. */
function checkedBuyer(customer: Customer): Customer {
  const parsed = buyerSchema.safeParse(customer);
  if (!parsed.success)
    throw new ValidationError(parsed.error.issues.map((issue) => issue.message).join('; '));
  return parsed.data;
}

async function recordCapture(
  deps: CheckoutDeps,
  paypalOrderId: string,
  checkout: LoadedStream<CheckoutState>,
  customer: CustomerSource,
  context: CommandContext,
): Promise<{ checkout: LoadedStream<CheckoutState>; recorded: boolean }> {
  const paypalOrder = await capturePayment(deps, paypalOrderId);
  const capture = firstCapture(paypalOrder);
  if (!capture) {
    deps.logger.error(
      { paypalOrderId, paypalStatus: paypalOrder.status },
      'PayPal answered a capture without a capture',
    );
    throw new PaymentIssueError(502, 'PayPal did not report a capture; please try again.');
  }
  const buyer = typeof customer === 'function' ? payerAsBuyer(customer(paypalOrder)) : customer;
  const command: CheckoutCommand = {
    type: 'CaptureCheckout',
    paypalOrderId,
    // People know an order by its id's first 8 characters (its number): time-ordered ids would share them.
    orderId: randomUUID(),
    capture: {
      id: makeStorable(capture.id, { max: CAPTURE_ID_MAX }),
      status: capture.status,
      amount: capture.amount?.value ?? '',
      currency: capture.amount?.currency_code ?? '',
    },
    customer: buyer,
    now: nowIso(deps),
  };
  let events: ReturnType<typeof decideCheckout>;
  try {
    events = decideCheckout(command, checkout.state);
  } catch (error) {
    if (error instanceof PaymentNotAcceptedError && error.reason === 'amount_mismatch') {
      // Money moved that the store does not take as payment: nothing is recorded as paid; someone must look.
      deps.logger.error(
        {
          alert: 'payment-not-accepted',
          paypalOrderId,
          captureId: capture.id,
          captured: capture.amount,
          priced: checkout.state.status === 'started' ? checkout.state.total : undefined,
        },
        'PayPal captured an amount the store did not price: the payment was NOT accepted and needs a refund',
      );
    } else if (error instanceof PaymentNotAcceptedError) {
      deps.logger.warn(
        { paypalOrderId, captureId: capture.id, status: capture.status },
        'capture not completed',
      );
    }
    throw error;
  }
  const eventId = timeOrderedId();
  try {
    const appended = await deps.eventStore.append(
      checkoutStream(paypalOrderId),
      events.map((event) => ({
        id: eventId,
        type: event.type,
        data: event.data,
        metadata: metadata(context),
      })),
      checkout.revision,
    );
    const state = events.reduce(checkoutDecider.evolve, checkout.state);
    const causes = new Map(checkout.causes).set('CheckoutCaptured', {
      eventId,
      correlationId: context.correlationId,
    });
    return {
      checkout: { state, revision: appended.nextExpectedRevision, position: appended.position, causes },
      recorded: true,
    };
  } catch (error) {
    // A capture recorded since this one read the stream: that one counts (PayPal replayed the same capture).
    if (!(error instanceof WrongExpectedRevisionError)) throw error;
    return {
      checkout: await loadStream(deps.eventStore, checkoutStream(paypalOrderId), checkoutDecider),
      recorded: false,
    };
  }
}

/** Captures at PayPal with the order's own request id; "already captured" is answered from the order itself. */
async function capturePayment(deps: CheckoutDeps, paypalOrderId: string): Promise<PaypalOrder> {
  try {
    return await deps.paypal.capture(paypalOrderId, captureRequestId(paypalOrderId));
  } catch (error) {
    if (error instanceof PayPalError && error.status === 422) {
      if (error.issue === 'ORDER_ALREADY_CAPTURED') return getOrder(deps, paypalOrderId);
      if (error.issue === 'ORDER_COMPLETION_IN_PROGRESS') return awaitCapture(deps, paypalOrderId);
      if (error.issue) throw new PaymentIssueError(422, error.description, error.issue);
    }
    throw providerFailure(deps.logger, error, 'capturing the PayPal order');
  }
}

async function getOrder(deps: CheckoutDeps, paypalOrderId: string): Promise<PaypalOrder> {
  try {
    return await deps.paypal.getOrder(paypalOrderId);
  } catch (error) {
    throw providerFailure(deps.logger, error, 'reading the PayPal order');
  }
}

/** PayPal is still completing an earlier capture request: look at the order a few times before giving up. */
async function awaitCapture(deps: CheckoutDeps, paypalOrderId: string): Promise<PaypalOrder> {
  for (const delayMs of [100, 250, 500, 1000, 2000]) {
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    const order = await getOrder(deps, paypalOrderId);
    if (firstCapture(order)) return order;
  }
  throw new PaymentIssueError(503, 'PayPal is still completing this payment; please try again in a moment.');
}

// ---------------------------------------------------------------------------------------------------------------
// What PayPal reports later (webhooks): the same idempotent commands.

export type PaymentNews = 'CompleteOrderPayment' | 'DenyOrderPayment' | 'CompleteOrderRefund';

/** A refund PayPal reports: its id, the money, and the store's refund id when it is one of the store's. */
export interface RefundNews {
  paypalRefundId: string;
  amount: string;
  refundId: string | null;
}

export interface PaymentNewsResult {
  /** 'applied' (an event was appended), 'unchanged' (already so), or why nothing could be applied. */
  outcome: 'applied' | 'unchanged' | 'unknown-checkout' | 'not-captured';
  orderId?: string;
  position?: Position | null;
}

/**
 * Applies news about the capture of a PayPal order the store created. A completion for a checkout the store
 * never recorded as captured (the browser went away) first runs the capture command with the payer PayPal
 * knows, so the order exists exactly once whichever path arrives first.
 */
export async function applyPaymentNews(
  deps: CheckoutDeps,
  news: PaymentNews,
  input: { paypalOrderId: string; captureId: string; refund?: RefundNews },
  context: CommandContext,
): Promise<PaymentNewsResult> {
  const checkout = await loadStream(deps.eventStore, checkoutStream(input.paypalOrderId), checkoutDecider);
  if (checkout.state.status === 'absent') return { outcome: 'unknown-checkout' };
  let orderId: string;
  if (checkout.state.status === 'captured') {
    orderId = checkout.state.orderId;
  } else if (news === 'CompleteOrderPayment') {
    // Never waits for a capture in progress (the browser's, most likely): the 503 makes PayPal deliver again,
    // by when it is recorded. A free lock means nobody is capturing, so the webhook captures itself, for the buyer
    // the starting browser named (PayPal's payer only when it named nobody).
    const buyer = checkout.state.customer ?? customerFromPayer;
    const captured = await captureCheckout(deps, input.paypalOrderId, buyer, context, { waitForLock: false });
    orderId = captured.order.orderId;
  } else {
    // A denial or refund of a capture the store never took as an order: there is nothing to change.
    return { outcome: 'not-captured' };
  }
  const { captureId, refund } = input;
  const command: OrderCommand =
    news === 'CompleteOrderRefund'
      ? { type: news, orderId, captureId, ...(refund as RefundNews), now: nowIso(deps) }
      : { type: news, orderId, captureId, now: nowIso(deps) };
  const run = () =>
    handleCommand(deps.eventStore, orderStream(orderId), orderDecider, command, metadata(context));
  let result: Awaited<ReturnType<typeof run>>;
  try {
    result = await run();
  } catch (error) {
    // The order stream is missing after a crash between the checkout and order appends: repair, then apply.
    if (!(error instanceof NotFoundError)) throw error;
    await placeOrder(deps, checkout);
    result = await run();
  }
  return { outcome: result.events.length > 0 ? 'applied' : 'unchanged', orderId, position: result.position };
}

/** The buyer as PayPal's payer record names them, for orders the browser never finished. */
export function customerFromPayer(order: PaypalOrder): { name: string; email?: string } {
  const name = [order.payer?.name?.given_name, order.payer?.name?.surname].filter(Boolean).join(' ');
  return { name, email: order.payer?.email_address };
}

// ---------------------------------------------------------------------------------------------------------------

/** PayPal failures the buyer can do nothing about: unavailable (retry later) or a fault on our side (logged). */
function providerFailure(logger: Logger, error: unknown, doing: string): Error {
  if (!(error instanceof PayPalError)) return error as Error;
  if (error.unavailable) {
    logger.warn(
      { err: error, status: error.status, debugId: error.debugId },
      `PayPal unavailable while ${doing}`,
    );
    return new PaymentIssueError(502, 'PayPal is not answering right now; please try again in a moment.');
  }
  logger.error(
    {
      err: error,
      status: error.status,
      name: error.name,
      issue: error.issue,
      debugId: error.debugId,
      details: error.details,
    },
    `PayPal refused a request while ${doing}`,
  );
  return new PaymentIssueError(
    502,
    'The payment provider refused the request; please try again later.',
    error.issue,
  );
}
