import { randomUUID } from 'node:crypto';
import {
  evolveInventory,
  evolveOrder,
  type InventoryState,
  initialInventoryState,
  initialOrderState,
  keyStatus,
  type LicenseKeyEvent,
  licenseKeyEventSchemas,
  orderEventSchemas,
  orderStatusSchema,
  type PlacedOrder,
} from '@licensestore/domain';
import {
  type KeyStatus,
  keyStatusAfter,
  type LaterOrderEvent,
  paymentAfter,
  statusAfter,
} from '@licensestore/platform/readmodel';
import { describe, expect, it } from 'vitest';
import { newKey, testVault } from './support/license-keys.js';
import { orderCaptured, orderLine } from './support/orders.js';

const at = '2026-06-01T09:00:00.000Z';

/** A placed order and one event of every type that can follow its capture. */
function placedAndLater() {
  const line = orderLine('Windows 11 Pro', 1, '19.99');
  const captured = orderCaptured({
    name: 'Ada',
    email: 'ada@example.com',
    lines: [line],
    capturedAt: at,
  });
  const { orderId } = captured.data;
  const placed = evolveOrder(initialOrderState, captured) as PlacedOrder;
  const { keyId, key } = newKey(testVault());
  const later: LaterOrderEvent[] = [
    { type: 'OrderPaymentCompleted', data: { orderId, captureId: 'CAPTURE', completedAt: at } },
    { type: 'OrderPaymentDenied', data: { orderId, captureId: 'CAPTURE', deniedAt: at } },
    { type: 'OrderRefunded', data: { orderId, captureId: 'CAPTURE', refundedAt: at } },
    { type: 'OrderStatusChanged', data: { orderId, from: 'pending', to: 'completed', changedAt: at } },
    {
      type: 'OrderReopened',
      data: { orderId, keysGivenUp: [{ lineId: line.lineId, keyId }], reopenedAt: at },
    },
    {
      type: 'OrderLicenceKeysAssigned',
      data: { orderId, lineId: line.lineId, keys: [{ keyId, key }], assignedAt: at },
    },
    { type: 'OrderFulfilled', data: { orderId, fulfilledAt: at } },
    { type: 'DeliveryEmailResendRequested', data: { orderId, requestedAt: at } },
    {
      type: 'DeliveryEmailSent',
      data: {
        orderId,
        trigger: randomUUID(),
        recipient: 'ada@example.com',
        messageId: '<m@x>',
        sentAt: at,
      },
    },
    {
      type: 'OrderRefundRequested',
      data: {
        orderId,
        refundId: randomUUID(),
        captureId: 'CAPTURE',
        units: [{ lineId: line.lineId, keyId }],
        amount: '19.99',
        reason: 'Bought by mistake',
        requestedAt: at,
      },
    },
    {
      type: 'OrderRefundCompleted',
      data: {
        orderId,
        refundId: null,
        paypalRefundId: 'REFUND',
        units: [{ lineId: line.lineId, keyId }],
        amount: '19.99',
        completedAt: at,
      },
    },
    {
      type: 'OrderRefundFailed',
      data: { orderId, refundId: randomUUID(), code: 'REFUND_FAILED', message: 'no', failedAt: at },
    },
    {
      type: 'LicenceKeysRevealed',
      data: {
        orderId,
        keyIds: [keyId],
        channel: 'confirmation-page',
        viewer: { type: 'order-link', id: null },
        clientHash: '0'.repeat(64),
        revealedAt: at,
      },
    },
    {
      type: 'OrderReceiptRequested',
      data: { orderId, year: 2026, receiptsAfterRevision: null, requestedAt: at },
    },
    { type: 'OrderReceiptIssued', data: { orderId, receiptNumber: '2026-000001', issuedAt: at } },
    { type: 'OrderHeldForReview', data: { orderId, rules: ['order-total'], heldAt: at } },
    { type: 'OrderApproved', data: { orderId, automatic: false, approvedAt: at } },
    { type: 'OrderRejected', data: { orderId, reason: 'Stolen card', rejectedAt: at } },
    {
      type: 'OrderReviewEmailSent',
      data: { orderId, trigger: randomUUID(), recipient: 'a@b.c', messageId: '<m@x>', sentAt: at },
    },
  ];
  return { placed, later };
}

describe('statusAfter', () => {
  describe('for every status and every order event after the capture', () => {
    it('is the status evolveOrder leaves the order in', () => {
      const { placed, later } = placedAndLater();
      expect(new Set(later.map((event) => event.type))).toEqual(
        new Set(Object.keys(orderEventSchemas).filter((type) => type !== 'OrderCaptured')),
      );
      for (const status of orderStatusSchema.options) {
        for (const event of later) {
          expect({ status, event: event.type, after: statusAfter(status, event) }).toEqual({
            status,
            event: event.type,
            after: evolveOrder({ ...placed, status }, event).status,
          });
        }
      }
    });
  });
});

describe('paymentAfter', () => {
  describe('for every payment state and every order event after the capture', () => {
    it('is where evolveOrder leaves the money', () => {
      const { placed, later } = placedAndLater();
      for (const payment of ['pending', 'completed', 'denied', 'refunded'] as const) {
        for (const event of later) {
          expect({
            payment,
            event: event.type,
            after: paymentAfter(payment, event, { total: placed.total, refundedBefore: '0.00' }),
          }).toEqual({
            payment,
            event: event.type,
            after: (evolveOrder({ ...placed, payment }, event) as PlacedOrder).payment,
          });
        }
      }
    });
  });
});

describe('keyStatusAfter', () => {
  describe('for a key absent, available, assigned or revoked, and every inventory event', () => {
    it('is the status evolveInventory leaves the key in (a removed key counts as absent)', () => {
      const productId = randomUUID();
      const { keyId, key: sealed, fingerprint } = newKey(testVault());
      const orderId = randomUUID();
      const events: LicenseKeyEvent[] = [
        {
          type: 'LicenceKeyAdded',
          data: { productId, keyId, key: sealed, fingerprint, addedAt: at },
        },
        { type: 'LicenceKeyRemoved', data: { productId, keyId, removedAt: at } },
        {
          type: 'LicenceKeysRequested',
          data: { productId, orderId, lineId: 'line', quantity: 1, requestedAt: at },
        },
        {
          type: 'LicenceKeysAssigned',
          data: { productId, orderId, lineId: 'line', keys: [{ keyId, key: sealed }], assignedAt: at },
        },
        { type: 'LicenceKeyStockLow', data: { productId, available: 0, threshold: 5, detectedAt: at } },
        { type: 'LicenceKeyRevoked', data: { productId, keyId, orderId, lineId: 'line', revokedAt: at } },
        { type: 'LicenceKeyReturned', data: { productId, keyId, orderId, lineId: 'line', returnedAt: at } },
        {
          type: 'LicenceKeysRequestWithdrawn',
          data: { productId, orderId, lineId: 'line', quantity: 1, withdrawnAt: at },
        },
        {
          type: 'LicenceKeyRevealed',
          data: {
            productId,
            keyId,
            viewer: { type: 'admin', id: 'admin' },
            clientHash: '0'.repeat(64),
            revealedAt: at,
          },
        },
      ];
      expect(new Set(events.map((event) => event.type))).toEqual(
        new Set(Object.keys(licenseKeyEventSchemas)),
      );
      const [added, , requested, assigned] = events as [
        LicenseKeyEvent,
        LicenseKeyEvent,
        LicenseKeyEvent,
        LicenseKeyEvent,
      ];
      const revoked = events.find((event) => event.type === 'LicenceKeyRevoked') as LicenseKeyEvent;
      const inventories: Array<[KeyStatus | undefined, InventoryState]> = [
        [undefined, initialInventoryState],
        ['available', [added].reduce(evolveInventory, initialInventoryState)],
        ['assigned', [added, requested, assigned].reduce(evolveInventory, initialInventoryState)],
        ['revoked', [added, requested, assigned, revoked].reduce(evolveInventory, initialInventoryState)],
      ];
      const statusIn = (inventory: InventoryState) => keyStatus(inventory, keyId)?.status;
      for (const [status, inventory] of inventories) {
        expect(statusIn(inventory)).toBe(status);
        for (const event of events) {
          expect({ status, event: event.type, after: keyStatusAfter(status, event) }).toEqual({
            status,
            event: event.type,
            after: statusIn(evolveInventory(inventory, event)),
          });
        }
      }
    });
  });
});
