import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { IllegalStateError, NotFoundError } from '../errors/index.js';
import { givenHistory } from '../testing/given.js';
import {
  type CheckoutCommand,
  evolveCheckout,
  initialCheckoutState,
  PaymentNotAcceptedError,
} from './checkout.js';
import type { CheckoutEvent, OrderEvent } from './events.js';
import { checkoutDecider, orderDecider } from './index.js';
import { evolveOrder, initialOrderState, type OrderCommand } from './order.js';

const paypalOrderId = '5O190127TN364715T';
const orderId = randomUUID();
const productId = randomUUID();
const startedAt = '2026-01-05T10:00:00.000Z';
const now = '2026-01-05T10:01:00.000Z';
const customer = { name: 'Ada Lovelace', email: 'ada@example.com' };
const lines = [
  { productId, productName: 'Office Suite', quantity: 2, unitPrice: '24.99', lineTotal: '49.98' },
];

const started: CheckoutEvent = {
  type: 'CheckoutStarted',
  data: { paypalOrderId, lines, total: '49.98', currency: 'USD', startedAt },
};
const captured: CheckoutEvent = {
  type: 'CheckoutCaptured',
  data: { paypalOrderId, orderId, captureId: 'CAP1', captureStatus: 'COMPLETED', customer, capturedAt: now },
};

const capture = (overrides: Partial<Extract<CheckoutCommand, { type: 'CaptureCheckout' }>['capture']> = {}) =>
  ({
    type: 'CaptureCheckout',
    paypalOrderId,
    orderId,
    capture: { id: 'CAP1', status: 'COMPLETED', amount: '49.98', currency: 'USD', ...overrides },
    customer,
    now,
  }) satisfies CheckoutCommand;

const givenCheckout = givenHistory(checkoutDecider);
const givenOrder = givenHistory(orderDecider);

describe('Checkout', () => {
  describe('when nothing was started', () => {
    it('starts with the server-priced lines and total', () => {
      givenCheckout()
        .when({
          type: 'StartCheckout',
          paypalOrderId,
          lines,
          total: '49.98',
          currency: 'USD',
          now: startedAt,
        })
        .thenEmits(started);
    });

    it('records the buyer the starting browser named, for a payment its browser never finishes', () => {
      const customer = { name: 'Ada Lovelace', email: 'ada@example.com' };
      givenCheckout()
        .when({ type: 'StartCheckout', paypalOrderId, lines, total: '49.98', currency: 'USD', customer, now })
        .thenEmits({ ...started, data: { ...started.data, customer, startedAt: now } } as CheckoutEvent);
    });

    it('refuses a total the lines do not add up to', () => {
      givenCheckout()
        .when({ type: 'StartCheckout', paypalOrderId, lines, total: '0.01', currency: 'USD', now })
        .thenFails(IllegalStateError, 'lines add up to 4998 cents');
    });

    it('refuses a capture of a PayPal order the store did not create', () => {
      givenCheckout().when(capture()).thenFails(NotFoundError, 'Unknown PayPal order');
    });
  });

  describe('when started', () => {
    it('cannot start again', () => {
      givenCheckout(started)
        .when({ type: 'StartCheckout', paypalOrderId, lines, total: '49.98', currency: 'USD', now })
        .thenFails(IllegalStateError, 'already started');
    });

    it('records a completed capture of exactly the priced amount as the new order', () => {
      givenCheckout(started).when(capture()).thenEmits(captured);
    });

    it('records a pending capture too (the webhook completes it)', () => {
      givenCheckout(started)
        .when(capture({ status: 'PENDING' }))
        .thenEmits({ ...captured, data: { ...captured.data, captureStatus: 'PENDING' } } as CheckoutEvent);
    });

    it('refuses a capture of another amount', () => {
      givenCheckout(started)
        .when(capture({ amount: '0.01' }))
        .thenFails(
          PaymentNotAcceptedError,
          'The captured amount 0.01 USD does not match the order total 49.98 USD',
        );
      givenCheckout(started)
        .when(capture({ amount: '49.99' }))
        .thenFails(PaymentNotAcceptedError, 'does not match');
    });

    it('refuses a capture in another currency', () => {
      givenCheckout(started)
        .when(capture({ currency: 'EUR' }))
        .thenFails(PaymentNotAcceptedError, '49.98 EUR does not match');
    });

    it('refuses a capture that is not completed or pending', () => {
      for (const status of ['DECLINED', 'FAILED', 'REFUNDED']) {
        givenCheckout(started)
          .when(capture({ status }))
          .thenFails(PaymentNotAcceptedError, `The payment was not completed (capture ${status})`);
      }
    });
  });

  describe('when captured', () => {
    it('adds nothing for a second capture, whatever order id it proposes', () => {
      givenCheckout(started, captured)
        .when({ ...capture(), orderId: randomUUID() })
        .thenEmitsNothing();
      const state = [started, captured].reduce(evolveCheckout, initialCheckoutState);
      expect(state).toMatchObject({ status: 'captured', orderId, captureStatus: 'COMPLETED', customer });
    });
  });

  it('is a decider that parses its own events only', () => {
    expect(checkoutDecider.parse('CheckoutStarted', started.data)).toEqual(started);
    expect(checkoutDecider.parse('ProductCreated', {})).toBeNull();
    expect(() => checkoutDecider.parse('CheckoutStarted', { ...started.data, total: '1.234' })).toThrow();
  });
});

describe('Order', () => {
  const orderLines = lines.map((line) => ({ ...line, lineId: randomUUID() }));
  const place = (captureStatus: 'COMPLETED' | 'PENDING'): OrderCommand => ({
    type: 'PlaceCapturedOrder',
    orderId,
    paypalOrderId,
    captureId: 'CAP1',
    captureStatus,
    customer,
    lines: orderLines,
    total: '49.98',
    currency: 'USD',
    now,
  });
  const placed = (status: 'processing' | 'pending'): OrderEvent => ({
    type: 'OrderCaptured',
    data: {
      orderId,
      paypalOrderId,
      captureId: 'CAP1',
      captureStatus: status === 'pending' ? 'PENDING' : 'COMPLETED',
      customer,
      lines: orderLines,
      total: '49.98',
      currency: 'USD',
      status,
      capturedAt: now,
    },
  });
  const completed: OrderEvent = {
    type: 'OrderPaymentCompleted',
    data: { orderId, captureId: 'CAP1', completedAt: now },
  };
  const denied: OrderEvent = {
    type: 'OrderPaymentDenied',
    data: { orderId, captureId: 'CAP1', deniedAt: now },
  };
  const refunded: OrderEvent = {
    type: 'OrderRefunded',
    data: { orderId, captureId: 'CAP1', refundedAt: now },
  };
  const paymentCommand = (type: 'CompleteOrderPayment' | 'DenyOrderPayment', captureId = 'CAP1') =>
    ({ type, orderId, captureId, now }) as OrderCommand;

  describe('when a capture places it', () => {
    it('is processing when the capture completed', () => {
      givenOrder().when(place('COMPLETED')).thenEmits(placed('processing'));
    });

    it('is pending when PayPal holds the capture', () => {
      givenOrder().when(place('PENDING')).thenEmits(placed('pending'));
    });

    it('is placed once: a repeated placement adds nothing', () => {
      givenOrder(placed('processing')).when(place('COMPLETED')).thenEmitsNothing();
    });
  });

  describe('when its payment is pending', () => {
    it('completes once', () => {
      givenOrder(placed('pending')).when(paymentCommand('CompleteOrderPayment')).thenEmits(completed);
      givenOrder(placed('pending'), completed)
        .when(paymentCommand('CompleteOrderPayment'))
        .thenEmitsNothing();
      expect([placed('pending'), completed].reduce(evolveOrder, initialOrderState)).toMatchObject({
        status: 'processing',
        payment: 'completed',
      });
    });

    it('is cancelled by a denial, and a later completion does not revive it', () => {
      givenOrder(placed('pending')).when(paymentCommand('DenyOrderPayment')).thenEmits(denied);
      givenOrder(placed('pending'), denied).when(paymentCommand('CompleteOrderPayment')).thenEmitsNothing();
      givenOrder(placed('pending'), denied).when(paymentCommand('DenyOrderPayment')).thenEmitsNothing();
      expect([placed('pending'), denied].reduce(evolveOrder, initialOrderState)).toMatchObject({
        status: 'cancelled',
        payment: 'denied',
      });
    });

    it('ignores news about another capture', () => {
      givenOrder(placed('pending'))
        .when(paymentCommand('CompleteOrderPayment', 'OTHER'))
        .thenFails(IllegalStateError, 'was paid by capture CAP1, not OTHER');
    });
  });

  describe('when paid', () => {
    it('is not denied afterwards', () => {
      givenOrder(placed('processing')).when(paymentCommand('DenyOrderPayment')).thenEmitsNothing();
    });

    it('reads a whole-order refund recorded before refunds had their own events as refunded', () => {
      expect([placed('processing'), refunded].reduce(evolveOrder, initialOrderState)).toMatchObject({
        status: 'refunded',
        payment: 'refunded',
      });
    });

    it('changes status with the status it had before', () => {
      givenOrder(placed('processing'))
        .when({ type: 'ChangeOrderStatus', orderId, to: 'completed', now })
        .thenEmits({
          type: 'OrderStatusChanged',
          data: { orderId, from: 'processing', to: 'completed', changedAt: now },
        });
      givenOrder(placed('processing'))
        .when({ type: 'ChangeOrderStatus', orderId, to: 'processing', now })
        .thenEmitsNothing();
    });
  });

  describe('when its license keys arrive', () => {
    const lineId = (orderLines[0] as { lineId: string }).lineId;
    const key = (n: number) => ({ keyId: randomUUID(), key: `v1.0badc0de.aXY${n}.Y3Q${n}.dGFn` });
    const [k1, k2] = [key(1), key(2)] as const;
    const keysAssigned = (...keys: Array<{ keyId: string; key: string }>): OrderEvent => ({
      type: 'OrderLicenceKeysAssigned',
      data: { orderId, lineId, keys, assignedAt: now },
    });
    const fulfilled: OrderEvent = { type: 'OrderFulfilled', data: { orderId, fulfilledAt: now } };
    const record = (...keys: Array<{ keyId: string; key: string }>): OrderCommand => ({
      type: 'RecordLicenseKeys',
      orderId,
      lineId,
      keys,
      now,
    });

    it('records a partial assignment and keeps the order processing', () => {
      givenOrder(placed('processing')).when(record(k1)).thenEmits(keysAssigned(k1));
      const state = [placed('processing'), keysAssigned(k1)].reduce(evolveOrder, initialOrderState);
      expect(state).toMatchObject({ status: 'processing', fulfilled: false });
    });

    it('is fulfilled, and completed, once every unit has its key', () => {
      givenOrder(placed('processing'), keysAssigned(k1))
        .when(record(k2))
        .thenEmits(keysAssigned(k2), fulfilled);
      const state = [placed('processing'), keysAssigned(k1), keysAssigned(k2), fulfilled].reduce(
        evolveOrder,
        initialOrderState,
      );
      expect(state).toMatchObject({ status: 'completed', fulfilled: true });
    });

    it('records the same keys only once (a retried job)', () => {
      givenOrder(placed('processing'), keysAssigned(k1, k2), fulfilled)
        .when(record(k1, k2))
        .thenEmitsNothing();
      givenOrder(placed('processing'), keysAssigned(k1))
        .when(record(k1, k2))
        .thenEmits(keysAssigned(k2), fulfilled);
    });

    it('refuses more keys than units, and a line it does not have', () => {
      givenOrder(placed('processing'), keysAssigned(k1, k2))
        .when(record(key(3)))
        .thenFails(IllegalStateError, 'needs 2 keys');
      givenOrder(placed('processing'))
        .when({ ...record(k1), lineId: 'nope' } as OrderCommand)
        .thenFails(IllegalStateError, 'has no line nope');
    });

    it('resends the delivery e-mail only once it is fulfilled', () => {
      givenOrder(placed('processing'), keysAssigned(k1))
        .when({ type: 'RequestDeliveryEmailResend', orderId, now })
        .thenFails(IllegalStateError, 'still waiting for license keys');
      givenOrder(placed('processing'), keysAssigned(k1, k2), fulfilled)
        .when({ type: 'RequestDeliveryEmailResend', orderId, now })
        .thenEmits({ type: 'DeliveryEmailResendRequested', data: { orderId, requestedAt: now } });
      givenOrder(placed('processing'), keysAssigned(k1, k2), fulfilled, {
        type: 'OrderStatusChanged',
        data: { orderId, from: 'completed', to: 'cancelled', changedAt: now },
      })
        .when({ type: 'RequestDeliveryEmailResend', orderId, now })
        .thenFails(IllegalStateError, 'is cancelled: its license keys are not sent again');
    });

    it('records each delivery e-mail once per event that caused it', () => {
      const trigger = randomUUID();
      const sent: OrderEvent = {
        type: 'DeliveryEmailSent',
        data: { orderId, trigger, recipient: customer.email, messageId: '<m@x>', sentAt: now },
      };
      const command: OrderCommand = {
        type: 'RecordDeliveryEmailSent',
        orderId,
        trigger,
        recipient: customer.email,
        messageId: '<m@x>',
        now,
      };
      givenOrder(placed('processing'), keysAssigned(k1, k2), fulfilled).when(command).thenEmits(sent);
      givenOrder(placed('processing'), keysAssigned(k1, k2), fulfilled, sent)
        .when(command)
        .thenEmitsNothing();
    });
  });

  describe('when it does not exist', () => {
    it('has no payment to complete or deny', () => {
      for (const type of ['CompleteOrderPayment', 'DenyOrderPayment'] as const) {
        givenOrder().when(paymentCommand(type)).thenFails(NotFoundError, 'Order not found');
      }
    });
  });

  it('is a decider that parses its own events only', () => {
    expect(orderDecider.parse('OrderRefunded', refunded.data)).toEqual(refunded);
    expect(orderDecider.parse('CheckoutStarted', started.data)).toBeNull();
  });
});
