import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { IllegalStateError } from '../errors/index.js';
import type { EventStore } from '../events/port.js';
import { givenHistory } from '../testing/given.js';
import { twoLineOrder } from '../testing/two-line-order.js';
import { orderCustodyStream, withKeysShownInCustody } from './custody.js';
import type { OrderEvent, OrderStatus } from './events.js';
import { orderDecider } from './index.js';
import { keyReleases, liveUnits } from './units.js';

const now = '2026-03-01T10:00:00.000Z';
const later = '2026-03-02T09:00:00.000Z';
const { orderId, office, antivirus, sealed, captured, keys, fulfilled, emailed, stateOf } = twoLineOrder(now);
const [k1, k2, k3, k4, k5, k6] = Array.from({ length: 6 }, () => randomUUID()) as [
  string,
  string,
  string,
  string,
  string,
  string,
];

const statusChanged = (from: OrderStatus, to: OrderStatus, at = now): OrderEvent => ({
  type: 'OrderStatusChanged',
  data: { orderId, from, to, changedAt: at },
});
const reopened = (givenUp: Array<{ lineId: string; keyId: string }>, at = later): OrderEvent => ({
  type: 'OrderReopened',
  data: { orderId, keysGivenUp: givenUp, reopenedAt: at },
});
const setStatus = (to: OrderStatus) => ({ type: 'ChangeOrderStatus', orderId, to, now: later }) as const;

const delivered = [captured(), keys('L1', k1, k2), keys('L2', k3), fulfilled(), emailed];
const cancelled = [...delivered, statusChanged('completed', 'cancelled')];
const givenUp = [
  { lineId: 'L1', keyId: k1 },
  { lineId: 'L1', keyId: k2 },
  { lineId: 'L2', keyId: k3 },
];

const given = givenHistory(orderDecider);

describe('Order reopening', () => {
  describe('when an admin sets a cancelled order to pending or completed', () => {
    it('reopens it, giving up the keys it held, then takes the status chosen', () => {
      given(...cancelled)
        .when(setStatus('completed'))
        .thenEmits(reopened(givenUp), statusChanged('cancelled', 'completed', later));
      given(...cancelled)
        .when(setStatus('pending'))
        .thenEmits(reopened(givenUp), statusChanged('cancelled', 'pending', later));
    });

    it('owes every live unit a key again, so the next keys fulfil it once more', () => {
      const open = stateOf(...cancelled, reopened(givenUp), statusChanged('cancelled', 'completed', later));
      expect(open.keys).toEqual({});
      expect(open.fulfilled).toBe(false);
      expect(liveUnits(open)).toEqual([
        { lineId: 'L1', keyId: null },
        { lineId: 'L1', keyId: null },
        { lineId: 'L2', keyId: null },
      ]);
      given(
        ...cancelled,
        reopened(givenUp),
        statusChanged('cancelled', 'completed', later),
        keys('L1', k4, k5),
      )
        .when({
          type: 'RecordLicenseKeys',
          orderId,
          lineId: 'L2',
          keys: [{ keyId: k6, key: sealed(6) }],
          now,
        })
        .thenEmits(
          {
            type: 'OrderLicenceKeysAssigned',
            data: { orderId, lineId: 'L2', keys: [{ keyId: k6, key: sealed(6) }], assignedAt: now },
          },
          fulfilled(),
        );
    });

    it('never takes back a key it gave up (a retried job recording an old assignment)', () => {
      given(...cancelled, reopened(givenUp), statusChanged('cancelled', 'completed', later))
        .when({
          type: 'RecordLicenseKeys',
          orderId,
          lineId: 'L1',
          keys: [{ keyId: k1, key: sealed(1) }],
          now,
        })
        .thenEmitsNothing();
    });

    it('gives its old keys back to the inventories even when the release of the cancel comes after', () => {
      const open = stateOf(...cancelled, reopened(givenUp), statusChanged('cancelled', 'completed', later));
      expect(keyReleases(open)).toEqual([
        {
          productId: office.productId,
          lineId: 'L1',
          keys: [
            { keyId: k1, leftStore: true },
            { keyId: k2, leftStore: true },
          ],
          wanted: 2,
        },
        { productId: antivirus.productId, lineId: 'L2', keys: [{ keyId: k3, leftStore: true }], wanted: 1 },
      ]);
    });

    it('revokes a key it gave up that was shown in clear before the cancel gave it back', async () => {
      const shown = {
        type: 'LicenceKeysRevealed',
        data: {
          orderId,
          keyIds: [k3],
          channel: 'confirmation-page',
          viewer: { type: 'order-link', id: null },
          clientHash: '0'.repeat(64),
          revealedAt: now,
        },
      };
      const custody = {
        async *readStream(stream: string) {
          if (stream === orderCustodyStream(orderId)) yield shown;
        },
      } as unknown as EventStore;
      const unsent = [captured(), keys('L1', k1, k2), keys('L2', k3), fulfilled()];
      const open = stateOf(
        ...unsent,
        statusChanged('completed', 'cancelled'),
        reopened(givenUp),
        statusChanged('cancelled', 'completed', later),
      );
      const releases = keyReleases(await withKeysShownInCustody(custody, open));
      expect(releases.flatMap((line) => line.keys)).toEqual([
        { keyId: k1, leftStore: false },
        { keyId: k2, leftStore: false },
        { keyId: k3, leftStore: true },
      ]);
    });

    it('keeps its new keys when it is served again', () => {
      const served = stateOf(
        ...cancelled,
        reopened(givenUp),
        statusChanged('cancelled', 'completed', later),
        keys('L1', k4, k5),
        keys('L2', k6),
        fulfilled(later),
      );
      expect(liveUnits(served)).toEqual([
        { lineId: 'L1', keyId: k4 },
        { lineId: 'L1', keyId: k5 },
        { lineId: 'L2', keyId: k6 },
      ]);
      expect(keyReleases(served).flatMap((line) => line.keys.map((key) => key.keyId))).toEqual([k1, k2, k3]);
    });

    it('reopens one cancelled twice with the keys of its second time only', () => {
      const second = [
        ...cancelled,
        reopened(givenUp),
        statusChanged('cancelled', 'completed', later),
        keys('L1', k4),
        statusChanged('completed', 'cancelled', later),
      ];
      given(...second)
        .when(setStatus('pending'))
        .thenEmits(reopened([{ lineId: 'L1', keyId: k4 }]), statusChanged('cancelled', 'pending', later));
    });

    it('reopens only the units not refunded', () => {
      const refundedUnit: OrderEvent = {
        type: 'OrderRefundCompleted',
        data: {
          orderId,
          refundId: randomUUID(),
          paypalRefundId: 'REF1',
          units: [{ lineId: 'L1', keyId: k1 }],
          amount: '24.99',
          completedAt: now,
        },
      };
      const open = stateOf(
        ...delivered,
        refundedUnit,
        statusChanged('completed', 'cancelled'),
        reopened(givenUp),
        statusChanged('cancelled', 'completed', later),
      );
      expect(liveUnits(open)).toEqual([
        { lineId: 'L1', keyId: null },
        { lineId: 'L2', keyId: null },
      ]);
    });
  });

  describe('when its money is not the store’s', () => {
    it('refuses a refunded order, saying why', () => {
      const refunded = [...delivered, statusChanged('completed', 'refunded')];
      given(...refunded)
        .when(setStatus('completed'))
        .thenFails(IllegalStateError, 'its license keys were released, so it cannot be reopened');
    });

    it('refuses a cancelled order whose money went back in full', () => {
      const moneyBack: OrderEvent = {
        type: 'OrderRefundCompleted',
        data: {
          orderId,
          refundId: null,
          paypalRefundId: 'REF9',
          units: [],
          amount: '59.98',
          completedAt: now,
        },
      };
      given(...cancelled, moneyBack)
        .when(setStatus('pending'))
        .thenFails(IllegalStateError, 'its money was refunded');
    });

    it('refuses an order whose payment PayPal denied', () => {
      const denied: OrderEvent = {
        type: 'OrderPaymentDenied',
        data: { orderId, captureId: 'CAP1', deniedAt: now },
      };
      given(captured('PENDING'), denied)
        .when(setStatus('completed'))
        .thenFails(IllegalStateError, 'payment was denied');
    });
  });

  describe('when its payment is still pending at PayPal', () => {
    it('reopens it to wait for the payment, as before it was cancelled', () => {
      given(captured('PENDING'), statusChanged('pending', 'cancelled'))
        .when(setStatus('pending'))
        .thenEmits(reopened([]), statusChanged('cancelled', 'pending', later));
    });
  });
});
