import { type CaptureOutcome, type CardSource, checkCard, instrumentDeclined } from './cards.js';
import {
  type ErrorDetail,
  ISSUES,
  internalServerError,
  type Link,
  resourceNotFound,
  unprocessable,
  unprocessableIssue,
} from './errors.js';
import { payerId, resourceId, timestamp } from './ids.js';
import {
  decimalPlaces,
  decimalsOf,
  fromMinor,
  type Money,
  normalise,
  SUPPORTED_CURRENCIES,
  toMinor,
} from './money.js';
import {
  type BreakdownKey,
  confirmRequest,
  type OrderRequest,
  orderRequest,
  parseBody,
  refundRequest,
} from './validation.js';

export type OrderStatus = 'CREATED' | 'APPROVED' | 'PAYER_ACTION_REQUIRED' | 'COMPLETED';
export type CaptureStatus = 'COMPLETED' | 'DECLINED' | 'PENDING' | 'REFUNDED' | 'PARTIALLY_REFUNDED';
/** How the buyer leaves the PayPal button's approval (the SDK's scenario switch). */
export type BuyerChoice = 'approve' | 'cancel' | 'decline' | 'pending' | 'error';

export interface Capture {
  id: string;
  status: CaptureStatus;
  status_details?: { reason: string };
  amount: Money;
  final_capture: true;
  seller_protection: { status: 'ELIGIBLE' | 'NOT_ELIGIBLE'; dispute_categories?: string[] };
  seller_receivable_breakdown: { gross_amount: Money; paypal_fee: Money; net_amount: Money };
  custom_id?: string;
  invoice_id?: string;
  create_time: string;
  update_time: string;
}

export interface Refund {
  id: string;
  status: 'COMPLETED';
  amount: Money;
  note_to_payer?: string;
  custom_id?: string;
  invoice_id?: string;
  seller_payable_breakdown: { gross_amount: Money; net_amount: Money; total_refunded_amount: Money };
  create_time: string;
  update_time: string;
}

export interface PurchaseUnit {
  reference_id: string;
  amount: Money & { breakdown?: Partial<Record<BreakdownKey, Money>> };
  payee: { email_address: string; merchant_id: string };
  custom_id?: string;
  invoice_id?: string;
  description?: string;
  soft_descriptor?: string;
  items?: Array<{
    name: string;
    quantity: string;
    unit_amount: Money;
    sku?: string;
    category?: string;
    description?: string;
  }>;
  payments?: { captures: Capture[]; refunds?: Refund[] };
}

export interface Payer {
  name: { given_name: string; surname: string };
  email_address: string;
  payer_id: string;
  address: { country_code: string };
}

export type PaymentSource =
  | {
      paypal: {
        email_address: string;
        account_id: string;
        account_status: 'VERIFIED';
        name: Payer['name'];
        address: Payer['address'];
      };
    }
  | { card: CardSource };

/** An order as the emulator holds it: PayPal's fields plus the emulator's own bookkeeping. */
export interface SandboxOrder {
  id: string;
  intent: 'CAPTURE';
  status: OrderStatus;
  purchase_units: PurchaseUnit[];
  payer?: Payer;
  payment_source?: PaymentSource;
  create_time: string;
  update_time: string;
  /** What the capture will do, set by the buyer's choice or the test card. */
  outcome: CaptureOutcome;
  /** Absolute base of the emulator as the creating client saw it; HATEOAS links are built from it. */
  baseUrl: string;
  returnUrl?: string;
  cancelUrl?: string;
  /** PayPal-Request-Id → the body of the successful capture, replayed with 200. */
  captureReplies: Map<string, OrderJson>;
}

export interface CaptureRef {
  order: SandboxOrder;
  unit: PurchaseUnit;
  capture: Capture;
}

export interface RefundRef extends CaptureRef {
  refund: Refund;
}

/** Everything the emulator knows; in memory, per emulator instance. */
export interface SandboxState {
  orders: Map<string, SandboxOrder>;
  captures: Map<string, CaptureRef>;
  refunds: Map<string, RefundRef>;
  /** PayPal-Request-Id of a create → the order it created. */
  createReplies: Map<string, string>;
  /** PayPal-Request-Id of a refund → the refund it created. */
  refundReplies: Map<string, string>;
  /** Captures whose refunds the merchant's balance cannot pay (a test's switch): refunds of them are refused. */
  unfundedRefunds: Set<string>;
}

export const emptyState = (): SandboxState => ({
  orders: new Map(),
  captures: new Map(),
  refunds: new Map(),
  createReplies: new Map(),
  refundReplies: new Map(),
  unfundedRefunds: new Set(),
});

export const MERCHANT = { email_address: 'sb-merchant@business.example.com', merchant_id: 'SBEMULATORMERCH' };
const BUYER = {
  name: { given_name: 'John', surname: 'Doe' },
  email_address: 'sb-buyer@personal.example.com',
  address: { country_code: 'US' },
};

// --- rendering -------------------------------------------------------------------------------------

export type OrderJson = Record<string, unknown> & { id: string; status: OrderStatus };

const link = (href: string, rel: string, method = 'GET'): Link => ({ href, rel, method });

export const approveUrl = (order: SandboxOrder) => `${order.baseUrl}/checkoutnow?token=${order.id}`;

export function captureLinks(ref: CaptureRef): Link[] {
  const base = ref.order.baseUrl;
  return [
    link(`${base}/v2/payments/captures/${ref.capture.id}`, 'self'),
    link(`${base}/v2/payments/captures/${ref.capture.id}/refund`, 'refund', 'POST'),
    link(`${base}/v2/checkout/orders/${ref.order.id}`, 'up'),
  ];
}

/** A capture on its own (GET capture, webhooks): linked to its order through supplementary_data. */
export const renderCapture = (ref: CaptureRef) => ({
  ...ref.capture,
  supplementary_data: { related_ids: { order_id: ref.order.id } },
  links: captureLinks(ref),
});

export const renderRefund = (ref: RefundRef) => ({
  ...ref.refund,
  links: [
    link(`${ref.order.baseUrl}/v2/payments/refunds/${ref.refund.id}`, 'self'),
    link(`${ref.order.baseUrl}/v2/payments/captures/${ref.capture.id}`, 'up'),
  ],
});

function orderLinks(order: SandboxOrder): Link[] {
  const self = `${order.baseUrl}/v2/checkout/orders/${order.id}`;
  switch (order.status) {
    case 'CREATED':
      return [
        link(self, 'self'),
        link(approveUrl(order), 'approve'),
        link(self, 'update', 'PATCH'),
        link(`${self}/capture`, 'capture', 'POST'),
      ];
    case 'PAYER_ACTION_REQUIRED':
      return [link(self, 'self'), link(approveUrl(order), 'payer-action')];
    case 'APPROVED':
      return [link(self, 'self'), link(self, 'update', 'PATCH'), link(`${self}/capture`, 'capture', 'POST')];
    case 'COMPLETED':
      return [link(self, 'self')];
  }
}

export function renderOrder(order: SandboxOrder): OrderJson {
  return {
    id: order.id,
    intent: order.intent,
    status: order.status,
    ...(order.payment_source ? { payment_source: order.payment_source } : {}),
    purchase_units: order.purchase_units.map((unit) => ({
      ...unit,
      ...(unit.payments
        ? {
            payments: {
              captures: unit.payments.captures.map((capture) => ({
                ...capture,
                links: captureLinks({ order, unit, capture }),
              })),
              ...(unit.payments.refunds ? { refunds: unit.payments.refunds } : {}),
            },
          }
        : {}),
    })),
    ...(order.payer ? { payer: order.payer } : {}),
    create_time: order.create_time,
    update_time: order.update_time,
    links: orderLinks(order),
  };
}

/** `Prefer: return=minimal` (PayPal's default): id, status and links. */
export const renderMinimal = (order: SandboxOrder) => ({
  id: order.id,
  status: order.status,
  links: orderLinks(order),
});

// --- create --------------------------------------------------------------------------------------

const amountField = (ref: string, ...rest: string[]) =>
  `/purchase_units/@reference_id=='${ref}'/${rest.join('/')}`;

/** Money checks PayPal makes after the schema: currency, precision, sign. */
function checkMoney(money: Money, field: string, allowZero: boolean): ErrorDetail | null {
  if (!SUPPORTED_CURRENCIES.has(money.currency_code)) {
    return {
      field: field.replace(/value$/, 'currency_code'),
      value: money.currency_code,
      location: 'body',
      issue: 'CURRENCY_NOT_SUPPORTED',
      description:
        'Currency code is not currently supported. Please refer https://developer.paypal.com/docs/api/reference/currency-codes/ for list of supported currency codes.',
    };
  }
  const places = decimalPlaces(money.value);
  if (decimalsOf(money.currency_code) === 0 && places > 0) {
    return {
      field,
      value: money.value,
      location: 'body',
      issue: 'DECIMALS_NOT_SUPPORTED',
      description: 'Currency code does not support decimals.',
    };
  }
  if (places > 2) {
    return {
      field,
      value: money.value,
      location: 'body',
      issue: 'DECIMAL_PRECISION',
      description: 'If the currency supports decimals, only two decimal place precision is supported.',
    };
  }
  const minor = toMinor(money);
  if (minor < 0 || (!allowZero && minor === 0)) {
    return {
      field,
      value: money.value,
      location: 'body',
      issue: allowZero ? 'CANNOT_BE_NEGATIVE' : 'CANNOT_BE_ZERO_OR_NEGATIVE',
      description: allowZero
        ? 'Must be greater than or equal to 0. If the currency supports decimals, only two decimal place precision is supported.'
        : 'Must be greater than zero. If the currency supports decimals, only two decimal place precision is supported.',
    };
  }
  return null;
}

function checkUnitMoney(unit: OrderRequest['purchase_units'][number], ref: string): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const currency = unit.amount.currency_code;
  const add = (detail: ErrorDetail | null) => {
    if (detail) problems.push(detail);
  };
  const sameCurrency = (money: Money, field: string) => {
    if (money.currency_code !== currency) {
      problems.push({
        field,
        value: money.currency_code,
        location: 'body',
        issue: 'CURRENCY_MISMATCH',
        description: 'Currency code should be the same across all amounts in a purchase unit.',
      });
    }
  };
  add(checkMoney(unit.amount, amountField(ref, 'amount', 'value'), false));
  for (const [key, money] of Object.entries(unit.amount.breakdown ?? {})) {
    if (!money) continue;
    const field = amountField(ref, 'amount', 'breakdown', key, 'value');
    sameCurrency(money, field.replace(/value$/, 'currency_code'));
    add(checkMoney(money, field, true));
  }
  (unit.items ?? []).forEach((item, index) => {
    const field = amountField(ref, 'items', String(index), 'unit_amount', 'value');
    sameCurrency(item.unit_amount, field.replace(/value$/, 'currency_code'));
    add(checkMoney(item.unit_amount, field, true));
  });
  return problems;
}

function checkUnitTotals(unit: OrderRequest['purchase_units'][number], ref: string): ErrorDetail[] {
  const breakdown = unit.amount.breakdown;
  if (unit.items?.length && !breakdown?.item_total) {
    return [
      {
        field: amountField(ref, 'amount', 'breakdown', 'item_total'),
        location: 'body',
        issue: 'ITEM_TOTAL_REQUIRED',
        description:
          'If item details are specified (items.unit_amount and items.quantity) corresponding amount.breakdown.item_total is required.',
      },
    ];
  }
  if (!breakdown) return [];
  const problems: ErrorDetail[] = [];
  if (unit.items?.length && breakdown.item_total) {
    const sum = unit.items.reduce(
      (total, item) => total + toMinor(item.unit_amount) * Number(item.quantity),
      0,
    );
    if (sum !== toMinor(breakdown.item_total)) {
      problems.push({
        field: amountField(ref, 'amount', 'breakdown', 'item_total', 'value'),
        value: breakdown.item_total.value,
        location: 'body',
        issue: 'ITEM_TOTAL_MISMATCH',
        description:
          'Should equal sum of (unit_amount * quantity) across all items for a given purchase_unit.',
      });
    }
  }
  const part = (key: BreakdownKey) => (breakdown[key] ? toMinor(breakdown[key]) : 0);
  const expected =
    part('item_total') +
    part('tax_total') +
    part('shipping') +
    part('handling') +
    part('insurance') -
    part('shipping_discount') -
    part('discount');
  if (expected !== toMinor(unit.amount)) {
    problems.push({
      field: amountField(ref, 'amount', 'value'),
      value: unit.amount.value,
      location: 'body',
      issue: 'AMOUNT_MISMATCH',
      description:
        'Should equal item_total + tax_total + shipping + handling + insurance - shipping_discount - discount.',
    });
  }
  return problems;
}

const normaliseBreakdown = (breakdown: Partial<Record<BreakdownKey, Money | undefined>>) =>
  Object.fromEntries(
    Object.entries(breakdown).flatMap(([key, money]) => (money ? [[key, normalise(money)]] : [])),
  ) as Partial<Record<BreakdownKey, Money>>;

/** POST /v2/checkout/orders: validates like PayPal, then stores a CREATED order. */
export function createOrder(
  state: SandboxState,
  body: unknown,
  baseUrl: string,
  now = new Date(),
): SandboxOrder {
  const request = parseBody(orderRequest, body ?? {});
  if (request.intent !== 'CAPTURE') {
    throw unprocessable([
      {
        field: '/intent',
        value: request.intent,
        location: 'body',
        issue: 'UNSUPPORTED_INTENT',
        description: 'The sandbox emulator supports intent CAPTURE only.',
      },
    ]);
  }
  const units = request.purchase_units;
  if (units.length > 1 && units.some((unit) => !unit.reference_id)) {
    throw unprocessableIssue(
      'REFERENCE_ID_REQUIRED',
      "'reference_id' is required for each 'purchase_unit' if multiple purchase_units are provided.",
    );
  }
  const refs = units.map((unit) => unit.reference_id ?? 'default');
  const moneyProblems = units.flatMap((unit, index) => checkUnitMoney(unit, refs[index] ?? 'default'));
  if (moneyProblems.length > 0) throw unprocessable(moneyProblems);
  const totalProblems = units.flatMap((unit, index) => checkUnitTotals(unit, refs[index] ?? 'default'));
  if (totalProblems.length > 0) throw unprocessable(totalProblems);

  const time = timestamp(now);
  const experience = request.payment_source?.paypal?.experience_context ?? request.application_context;
  const order: SandboxOrder = {
    id: resourceId(),
    intent: 'CAPTURE',
    status: 'CREATED',
    purchase_units: units.map((unit, index) => ({
      reference_id: refs[index] ?? 'default',
      amount: {
        ...normalise(unit.amount),
        ...(unit.amount.breakdown ? { breakdown: normaliseBreakdown(unit.amount.breakdown) } : {}),
      },
      payee: MERCHANT,
      ...(unit.description !== undefined ? { description: unit.description } : {}),
      ...(unit.custom_id !== undefined ? { custom_id: unit.custom_id } : {}),
      ...(unit.invoice_id !== undefined ? { invoice_id: unit.invoice_id } : {}),
      ...(unit.soft_descriptor !== undefined ? { soft_descriptor: unit.soft_descriptor } : {}),
      ...(unit.items
        ? {
            items: unit.items.map((item) => ({
              name: item.name,
              unit_amount: normalise(item.unit_amount),
              quantity: item.quantity,
              ...(item.sku !== undefined ? { sku: item.sku } : {}),
              ...(item.description !== undefined ? { description: item.description } : {}),
              ...(item.category !== undefined ? { category: item.category } : {}),
            })),
          }
        : {}),
    })),
    create_time: time,
    update_time: time,
    outcome: 'complete',
    baseUrl,
    ...(experience?.return_url ? { returnUrl: experience.return_url } : {}),
    ...(experience?.cancel_url ? { cancelUrl: experience.cancel_url } : {}),
    captureReplies: new Map(),
  };
  state.orders.set(order.id, order);
  return order;
}

export function findOrder(state: SandboxState, id: string): SandboxOrder {
  const order = state.orders.get(id);
  if (!order) throw resourceNotFound('order_id', id);
  return order;
}

// --- approval ------------------------------------------------------------------------------------

/** The buyer approves in PayPal's window (the SDK's button, or the approve link). */
export function approveWithPaypal(
  order: SandboxOrder,
  choice: Exclude<BuyerChoice, 'cancel'>,
  now = new Date(),
) {
  if (order.status === 'COMPLETED') {
    throw unprocessableIssue('ORDER_CANNOT_BE_CONFIRMED', ISSUES.ORDER_CANNOT_BE_CONFIRMED);
  }
  const id = order.payer?.payer_id ?? payerId();
  order.payer = { ...BUYER, payer_id: id };
  order.payment_source = { paypal: { ...BUYER, account_id: id, account_status: 'VERIFIED' } };
  order.outcome = choice === 'approve' ? 'complete' : choice;
  order.status = 'APPROVED';
  order.update_time = timestamp(now);
  return order.payer;
}

/** POST …/confirm-payment-source: a card approves the order at once; a PayPal wallet needs the buyer. */
export function confirmPaymentSource(order: SandboxOrder, body: unknown, now = new Date()): SandboxOrder {
  const { payment_source } = parseBody(confirmRequest, body ?? {});
  if (order.status === 'COMPLETED') {
    throw unprocessableIssue('ORDER_CANNOT_BE_CONFIRMED', ISSUES.ORDER_CANNOT_BE_CONFIRMED);
  }
  if (payment_source.card) {
    const card = checkCard(payment_source.card, now);
    if (card.declineAtConfirm) throw instrumentDeclined();
    order.payment_source = { card: card.source };
    order.outcome = card.outcome;
    order.status = 'APPROVED';
  } else if (payment_source.paypal) {
    order.status = 'PAYER_ACTION_REQUIRED';
  } else {
    throw unprocessableIssue(
      'PAYMENT_SOURCE_NOT_SUPPORTED',
      'The sandbox emulator confirms payment_source.card and payment_source.paypal only.',
    );
  }
  order.update_time = timestamp(now);
  return order;
}

// --- capture -------------------------------------------------------------------------------------

/** PayPal's standard US rate, 3.49% + 0.49 (in minor units), never more than the payment. */
const feeOf = (gross: number) => Math.min(gross, Math.round(gross * 0.0349) + 49);

/**
 * POST …/capture, run under the order's lock. Returns the captures it made (so the caller can send
 * webhooks) or throws the PayPal error the order's instrument produces.
 */
export function captureOrder(state: SandboxState, order: SandboxOrder, now = new Date()): CaptureRef[] {
  if (order.status === 'CREATED' || order.status === 'PAYER_ACTION_REQUIRED') {
    throw unprocessableIssue('ORDER_NOT_APPROVED', ISSUES.ORDER_NOT_APPROVED);
  }
  if (order.status === 'COMPLETED') {
    throw unprocessableIssue('ORDER_ALREADY_CAPTURED', ISSUES.ORDER_ALREADY_CAPTURED);
  }
  if (order.outcome === 'decline') {
    // PayPal sends the buyer back to pick another funding source (actions.restart() in the SDK).
    throw instrumentDeclined(
      'paypal' in (order.payment_source ?? {}) ? [link(approveUrl(order), 'redirect')] : [],
    );
  }
  if (order.outcome === 'error') throw internalServerError();

  const time = timestamp(now);
  const card = order.payment_source !== undefined && 'card' in order.payment_source;
  const refs = order.purchase_units.map((unit) => {
    const gross = toMinor(unit.amount);
    const currency = unit.amount.currency_code;
    const fee = feeOf(gross);
    const capture: Capture = {
      id: resourceId(),
      status: order.outcome === 'pending' ? 'PENDING' : 'COMPLETED',
      ...(order.outcome === 'pending' ? { status_details: { reason: 'PENDING_REVIEW' } } : {}),
      amount: { currency_code: currency, value: unit.amount.value },
      final_capture: true,
      seller_protection: card
        ? { status: 'NOT_ELIGIBLE' }
        : { status: 'ELIGIBLE', dispute_categories: ['ITEM_NOT_RECEIVED', 'UNAUTHORIZED_TRANSACTION'] },
      seller_receivable_breakdown: {
        gross_amount: fromMinor(gross, currency),
        paypal_fee: fromMinor(fee, currency),
        net_amount: fromMinor(gross - fee, currency),
      },
      ...(unit.custom_id !== undefined ? { custom_id: unit.custom_id } : {}),
      ...(unit.invoice_id !== undefined ? { invoice_id: unit.invoice_id } : {}),
      create_time: time,
      update_time: time,
    };
    unit.payments = { captures: [capture] };
    const ref = { order, unit, capture };
    state.captures.set(capture.id, ref);
    return ref;
  });
  order.status = 'COMPLETED';
  order.update_time = time;
  return refs;
}

export function findCapture(state: SandboxState, id: string): CaptureRef {
  const ref = state.captures.get(id);
  if (!ref) throw resourceNotFound('capture_id', id, 'payments');
  return ref;
}

/** Settles a PENDING capture (the control endpoints): COMPLETED, or DECLINED when denied. */
export function settlePendingCapture(ref: CaptureRef, result: 'COMPLETED' | 'DECLINED', now = new Date()) {
  if (ref.capture.status !== 'PENDING') return false;
  ref.capture.status = result;
  delete ref.capture.status_details;
  ref.capture.update_time = timestamp(now);
  return true;
}

/** The capture an order-level control endpoint acts on: the first purchase unit's. */
export function captureOfOrder(state: SandboxState, orderId: string): CaptureRef {
  const order = findOrder(state, orderId);
  const unit = order.purchase_units[0];
  const capture = unit?.payments?.captures[0];
  if (!unit || !capture) {
    throw unprocessableIssue('ORDER_NOT_CAPTURED', `Order ${orderId} has no capture yet.`);
  }
  return { order, unit, capture };
}

// --- refund --------------------------------------------------------------------------------------

/** POST /v2/payments/captures/{id}/refund: full refund without an amount, partial with one. */
export function refundCapture(
  state: SandboxState,
  ref: CaptureRef,
  body: unknown,
  now = new Date(),
): RefundRef {
  const request = parseBody(refundRequest, body ?? undefined, 'payments');
  const { capture, unit } = ref;
  if (capture.status === 'PENDING')
    throw unprocessableIssue('PENDING_CAPTURE', ISSUES.PENDING_CAPTURE, 'payments');
  if (capture.status === 'REFUNDED') {
    throw unprocessableIssue('CAPTURE_FULLY_REFUNDED', ISSUES.CAPTURE_FULLY_REFUNDED, 'payments');
  }
  if (capture.status === 'DECLINED') {
    throw unprocessableIssue('TRANSACTION_REFUSED', ISSUES.TRANSACTION_REFUSED, 'payments');
  }
  if (state.unfundedRefunds.has(capture.id)) {
    throw unprocessableIssue(
      'REFUND_FAILED_INSUFFICIENT_FUNDS',
      ISSUES.REFUND_FAILED_INSUFFICIENT_FUNDS,
      'payments',
    );
  }
  const currency = capture.amount.currency_code;
  const refunded = (unit.payments?.refunds ?? [])
    .filter((refund) => state.refunds.get(refund.id)?.capture === capture)
    .reduce((total, refund) => total + toMinor(refund.amount), 0);
  const remaining = toMinor(capture.amount) - refunded;
  let amount = remaining;
  if (request?.amount) {
    if (request.amount.currency_code !== currency) {
      throw unprocessable(
        [
          {
            field: '/amount/currency_code',
            value: request.amount.currency_code,
            location: 'body',
            issue: 'REFUND_CAPTURE_CURRENCY_MISMATCH',
            description: 'Refund must be in the same currency as the capture.',
          },
        ],
        'payments',
      );
    }
    const problem = checkMoney(request.amount, '/amount/value', false);
    if (problem) throw unprocessable([problem], 'payments');
    amount = toMinor(request.amount);
    if (amount > remaining) {
      throw unprocessableIssue('REFUND_AMOUNT_EXCEEDED', ISSUES.REFUND_AMOUNT_EXCEEDED, 'payments');
    }
  }
  const time = timestamp(now);
  const refund: Refund = {
    id: resourceId(),
    status: 'COMPLETED',
    amount: fromMinor(amount, currency),
    ...(request?.note_to_payer !== undefined ? { note_to_payer: request.note_to_payer } : {}),
    ...((request?.custom_id ?? capture.custom_id) !== undefined
      ? { custom_id: request?.custom_id ?? capture.custom_id }
      : {}),
    ...((request?.invoice_id ?? capture.invoice_id) !== undefined
      ? { invoice_id: request?.invoice_id ?? capture.invoice_id }
      : {}),
    seller_payable_breakdown: {
      gross_amount: fromMinor(amount, currency),
      net_amount: fromMinor(amount, currency),
      total_refunded_amount: fromMinor(refunded + amount, currency),
    },
    create_time: time,
    update_time: time,
  };
  capture.status = amount === remaining ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
  capture.update_time = time;
  unit.payments = {
    captures: unit.payments?.captures ?? [capture],
    refunds: [...(unit.payments?.refunds ?? []), refund],
  };
  const refundRef = { ...ref, refund };
  state.refunds.set(refund.id, refundRef);
  return refundRef;
}

export function findRefund(state: SandboxState, id: string): RefundRef {
  const ref = state.refunds.get(id);
  if (!ref) throw resourceNotFound('refund_id', id, 'payments');
  return ref;
}
