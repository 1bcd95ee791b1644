import { randomUUID } from 'node:crypto';
import { describe, it } from 'vitest';
import { IllegalStateError } from '../errors/index.js';
import { givenHistory } from '../testing/given.js';
import { twoLineOrder } from '../testing/two-line-order.js';
import type { OrderEvent } from './events.js';
import { orderDecider } from './index.js';
import type { OrderCommand } from './order.js';
import { orderNumber } from './order-number.js';

const now = '2026-03-01T10:00:00.000Z';
const { orderId, office, antivirus, captured, keys, fulfilled } = twoLineOrder(now);
const [k1, k2, k3] = [randomUUID(), randomUUID(), randomUUID()] as [string, string, string];
const number = orderNumber(orderId);

const held: OrderEvent = {
  type: 'OrderHeldForReview',
  data: { orderId, rules: ['order-total'], heldAt: now },
};
const approved: OrderEvent = { type: 'OrderApproved', data: { orderId, automatic: false, approvedAt: now } };
const rejected: OrderEvent = {
  type: 'OrderRejected',
  data: { orderId, reason: 'Stolen card', rejectedAt: now },
};
const heldAndKeysSetAside = [captured(), held, keys('L1', k1, k2), keys('L2', k3), fulfilled()];

const approve: OrderCommand = { type: 'ApproveOrder', orderId, automatic: false, now };
const refundId = randomUUID();
const reject: OrderCommand = { type: 'RejectOrder', orderId, refundId, reason: 'Stolen card', now };

const given = givenHistory(orderDecider);

describe('Order review', () => {
  describe('when the risk rules matched the order as it was placed', () => {
    it('records the capture and the hold naming the rules', () => {
      const capture = captured().data as Extract<OrderEvent, { type: 'OrderCaptured' }>['data'];
      given()
        .when({
          type: 'PlaceCapturedOrder',
          orderId,
          paypalOrderId: capture.paypalOrderId,
          captureId: capture.captureId,
          captureStatus: 'COMPLETED',
          customer: capture.customer,
          lines: capture.lines,
          total: capture.total,
          currency: 'USD',
          heldFor: ['order-total', 'velocity-orders'],
          now,
        })
        .thenEmits(captured(), {
          type: 'OrderHeldForReview',
          data: { orderId, rules: ['order-total', 'velocity-orders'], heldAt: now },
        });
    });
  });

  describe('when it is held', () => {
    it('is approved, by an admin or by the system after the wait', () => {
      given(...heldAndKeysSetAside)
        .when(approve)
        .thenEmits(approved);
      given(captured(), held)
        .when({ ...approve, automatic: true })
        .thenEmits({ type: 'OrderApproved', data: { orderId, automatic: true, approvedAt: now } });
    });

    it('is rejected with a full refund of every unit, keys or not', () => {
      given(captured(), held, keys('L1', k1))
        .when(reject)
        .thenEmits(rejected, {
          type: 'OrderRefundRequested',
          data: {
            orderId,
            refundId,
            captureId: 'CAP1',
            units: [
              { lineId: office.lineId, keyId: k1 },
              { lineId: office.lineId, keyId: null },
              { lineId: antivirus.lineId, keyId: null },
            ],
            amount: '59.98',
            reason: 'Rejected after review: Stolen card',
            requestedAt: now,
          },
        });
    });

    it('is only rejected when PayPal denied the payment, as no money was taken', () => {
      const denied: OrderEvent = {
        type: 'OrderPaymentDenied',
        data: { orderId, captureId: 'CAP1', deniedAt: now },
      };
      given(captured('PENDING'), held, denied).when(reject).thenEmits(rejected);
    });

    it('does not send its keys again on request', () => {
      given(...heldAndKeysSetAside)
        .when({ type: 'RequestDeliveryEmailResend', orderId, now })
        .thenFails(IllegalStateError, `Order ${number} is being checked`);
    });
  });

  describe('when an approval and a rejection race', () => {
    it('tells the second which decision won', () => {
      given(...heldAndKeysSetAside, approved)
        .when(reject)
        .thenFails(
          IllegalStateError,
          `Order ${number} was already approved by someone else: it cannot also be rejected.`,
        );
      given(...heldAndKeysSetAside, rejected)
        .when(approve)
        .thenFails(
          IllegalStateError,
          `Order ${number} was already rejected by someone else: it cannot also be approved.`,
        );
    });
  });

  describe('when it was never held', () => {
    it('has nothing to approve or reject', () => {
      given(captured())
        .when(approve)
        .thenFails(IllegalStateError, `Order ${number} was not held for review: there is nothing to decide.`);
      given(captured()).when(reject).thenFails(IllegalStateError, 'there is nothing to decide');
    });
  });
});
