import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { IllegalStateError } from '../errors/index.js';
import { givenHistory } from '../testing/given.js';
import { twoLineOrder } from '../testing/two-line-order.js';
import type { OrderEvent, OrderUnit } from './events.js';
import { orderDecider } from './index.js';
import type { OrderCommand } from './order.js';
import { keyReleases, liveUnits } from './units.js';

const now = '2026-03-01T10:00:00.000Z';
const { orderId, office, antivirus, captured, keys, fulfilled, emailed, stateOf } = twoLineOrder(now);
const [k1, k2, k3] = [randomUUID(), randomUUID(), randomUUID()] as [string, string, string];
const delivered = [captured(), keys('L1', k1, k2), keys('L2', k3), fulfilled()];

const refundId = randomUUID();
const refund = (units: OrderUnit[] | 'all', id = refundId): OrderCommand => ({
  type: 'RefundOrderUnits',
  orderId,
  refundId: id,
  units,
  reason: 'Bought twice',
  now,
});
const requested = (units: OrderUnit[], amount: string, id = refundId): OrderEvent => ({
  type: 'OrderRefundRequested',
  data: { orderId, refundId: id, captureId: 'CAP1', units, amount, reason: 'Bought twice', requestedAt: now },
});
const complete = (amount: string, id: string | null = refundId, paypalRefundId = 'REF1'): OrderCommand => ({
  type: 'CompleteOrderRefund',
  orderId,
  captureId: 'CAP1',
  refundId: id,
  paypalRefundId,
  amount,
  now,
});
const completed = (
  units: OrderUnit[],
  amount: string,
  id: string | null = refundId,
  paypalRefundId = 'REF1',
): OrderEvent => ({
  type: 'OrderRefundCompleted',
  data: { orderId, refundId: id, paypalRefundId, units, amount, completedAt: now },
});
const becameRefunded = (from: 'completed' | 'processing'): OrderEvent => ({
  type: 'OrderStatusChanged',
  data: { orderId, from, to: 'refunded', changedAt: now },
});

const given = givenHistory(orderDecider);

describe('Order refunds', () => {
  describe('when an admin refunds chosen units of a paid order', () => {
    it('asks for the units at their unit prices, in cents', () => {
      given(...delivered)
        .when(refund([{ lineId: 'L1', keyId: k1 }]))
        .thenEmits(requested([{ lineId: 'L1', keyId: k1 }], '24.99'));
      given(...delivered)
        .when(
          refund([
            { lineId: 'L1', keyId: k2 },
            { lineId: 'L2', keyId: k3 },
          ]),
        )
        .thenEmits(
          requested(
            [
              { lineId: 'L1', keyId: k2 },
              { lineId: 'L2', keyId: k3 },
            ],
            '34.99',
          ),
        );
    });

    it('refunds a unit still waiting for its key', () => {
      given(captured(), keys('L1', k1))
        .when(refund([{ lineId: 'L1', keyId: null }]))
        .thenEmits(requested([{ lineId: 'L1', keyId: null }], '24.99'));
    });

    it('asks once for the same request (a retried call)', () => {
      given(...delivered, requested([{ lineId: 'L1', keyId: k1 }], '24.99'))
        .when(refund([{ lineId: 'L1', keyId: k1 }]))
        .thenEmitsNothing();
    });

    it('refuses a unit in a refund in progress, or already refunded', () => {
      const inFlight = requested([{ lineId: 'L1', keyId: k1 }], '24.99');
      given(...delivered, inFlight)
        .when(refund([{ lineId: 'L1', keyId: k1 }], randomUUID()))
        .thenFails(IllegalStateError, 'a refund of it is in progress');
      given(...delivered, inFlight, completed([{ lineId: 'L1', keyId: k1 }], '24.99'))
        .when(refund([{ lineId: 'L1', keyId: k1 }], randomUUID()))
        .thenFails(IllegalStateError, 'it is not a unit of this order still to refund');
    });

    it('refuses units the order does not have', () => {
      given(...delivered)
        .when(refund([{ lineId: 'L1', keyId: randomUUID() }]))
        .thenFails(IllegalStateError, 'cannot be refunded');
      given(...delivered)
        .when(refund([{ lineId: 'L9', keyId: null }]))
        .thenFails(IllegalStateError, 'line L9');
      given(...delivered)
        .when(refund([{ lineId: 'L1', keyId: null }]))
        .thenFails(IllegalStateError, 'unit without a key');
    });

    it('frees the units of a refund PayPal refused', () => {
      const inFlight = requested([{ lineId: 'L1', keyId: k1 }], '24.99');
      const failure: OrderCommand = {
        type: 'FailOrderRefund',
        orderId,
        refundId,
        code: 'INSUFFICIENT_FUNDS',
        message: 'The merchant balance is too low',
        now,
      };
      const failed: OrderEvent = {
        type: 'OrderRefundFailed',
        data: {
          orderId,
          refundId,
          code: 'INSUFFICIENT_FUNDS',
          message: 'The merchant balance is too low',
          failedAt: now,
        },
      };
      given(...delivered, inFlight)
        .when(failure)
        .thenEmits(failed);
      given(...delivered, inFlight, failed)
        .when(failure)
        .thenEmitsNothing();
      given(...delivered, inFlight, failed)
        .when(refund([{ lineId: 'L1', keyId: k1 }], randomUUID()))
        .thenEmits(requested([{ lineId: 'L1', keyId: k1 }], '24.99', expect.any(String)));
    });
  });

  describe('when the payment is not money PayPal holds', () => {
    it('refuses a pending capture, saying so', () => {
      given(captured('PENDING'))
        .when(refund('all'))
        .thenFails(IllegalStateError, 'still under review at PayPal (capture pending)');
    });

    it('refuses a denied payment', () => {
      given(captured('PENDING'), {
        type: 'OrderPaymentDenied',
        data: { orderId, captureId: 'CAP1', deniedAt: now },
      })
        .when(refund('all'))
        .thenFails(IllegalStateError, 'was denied');
    });
  });

  describe('when PayPal completes a requested refund', () => {
    it('records its units; the last unit makes the order refunded', () => {
      const one = [{ lineId: 'L1', keyId: k1 }];
      given(...delivered, requested(one, '24.99'))
        .when(complete('24.99'))
        .thenEmits(completed(one, '24.99'));
      const rest = [
        { lineId: 'L1', keyId: k2 },
        { lineId: 'L2', keyId: k3 },
      ];
      const second = randomUUID();
      given(...delivered, requested(one, '24.99'), completed(one, '24.99'), requested(rest, '34.99', second))
        .when(complete('34.99', second, 'REF2'))
        .thenEmits(completed(rest, '34.99', second, 'REF2'), becameRefunded('completed'));
    });

    it('records it once, whether the answer or the webhook comes first', () => {
      const all = liveUnits(stateOf(...delivered));
      given(...delivered, requested(all, '59.98'), completed(all, '59.98'), becameRefunded('completed'))
        .when(complete('59.98'))
        .thenEmitsNothing();
    });

    it('fulfils an order whose last waiting unit is refunded', () => {
      const waiting = [{ lineId: 'L1', keyId: null }];
      given(captured(), keys('L1', k1), keys('L2', k3), requested(waiting, '24.99'))
        .when(complete('24.99'))
        .thenEmits(completed(waiting, '24.99'), fulfilled());
    });
  });

  describe('when PayPal reports a refund made in its own dashboard', () => {
    it('refunds every unit left for the full amount', () => {
      given(...delivered)
        .when(complete('59.98', null))
        .thenEmits(completed(liveUnits(stateOf(...delivered)), '59.98', null), becameRefunded('completed'));
    });

    it('refunds the units an amount pays for exactly', () => {
      given(...delivered)
        .when(complete('10.00', null))
        .thenEmits(completed([{ lineId: 'L2', keyId: k3 }], '10.00', null));
    });

    it('records an amount no units make up as a refund of money only', () => {
      given(...delivered)
        .when(complete('5.00', null))
        .thenEmits(completed([], '5.00', null));
      expect(stateOf(...delivered, completed([], '5.00', null))).toMatchObject({
        refundedCents: 500,
        status: 'completed',
      });
    });

    it('caps a later refund of every unit at the money PayPal still holds', () => {
      given(...delivered, completed([], '5.00', null))
        .when(refund('all'))
        .thenEmits(requested(liveUnits(stateOf(...delivered)), '54.98'));
    });
  });

  describe('what goes back to the inventory', () => {
    it('revokes a refunded key that left the store and returns one that never did', () => {
      const sent = stateOf(...delivered, emailed, completed([{ lineId: 'L1', keyId: k1 }], '24.99'));
      expect(keyReleases(sent)).toEqual([
        { productId: office.productId, lineId: 'L1', keys: [{ keyId: k1, leftStore: true }], wanted: 1 },
      ]);
      const unsent = stateOf(...delivered, completed([{ lineId: 'L2', keyId: k3 }], '10.00'));
      expect(keyReleases(unsent)).toEqual([
        { productId: antivirus.productId, lineId: 'L2', keys: [{ keyId: k3, leftStore: false }], wanted: 0 },
      ]);
    });

    it('gives back every key and every wait of a cancelled order', () => {
      const cancelled = stateOf(captured(), keys('L1', k1), {
        type: 'OrderStatusChanged',
        data: { orderId, from: 'processing', to: 'cancelled', changedAt: now },
      });
      expect(keyReleases(cancelled)).toEqual([
        { productId: office.productId, lineId: 'L1', keys: [{ keyId: k1, leftStore: false }], wanted: 0 },
        { productId: antivirus.productId, lineId: 'L2', keys: [], wanted: 0 },
      ]);
    });

    it('gives back a key that reached a unit refunded while it waited', () => {
      const crossed = stateOf(
        captured(),
        completed([{ lineId: 'L1', keyId: null }], '24.99'),
        keys('L1', k1, k2),
      );
      expect(keyReleases(crossed)).toEqual([
        { productId: office.productId, lineId: 'L1', keys: [{ keyId: k2, leftStore: false }], wanted: 1 },
      ]);
    });

    it('gives nothing back for an order left whole', () => {
      expect(keyReleases(stateOf(...delivered, emailed))).toEqual([]);
    });
  });

  describe('when refunded', () => {
    it('is not reopened: its money went back', () => {
      const all = liveUnits(stateOf(...delivered));
      given(...delivered, requested(all, '59.98'), completed(all, '59.98'), becameRefunded('completed'))
        .when({ type: 'ChangeOrderStatus', orderId, to: 'completed', now })
        .thenFails(IllegalStateError, 'cannot be reopened');
    });
  });
});
