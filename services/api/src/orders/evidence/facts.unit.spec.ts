import { randomUUID } from 'node:crypto';
import type { Actor, RecordedEvent } from '@licensestore/domain/events';
import { describe, expect, it } from 'vitest';
import { orderCaptured, orderLine, statusChanged } from '../../../../../projections/test/support/orders.js';
import { adminIdsOf, evidenceFacts, withAdminNames } from './facts.js';

const ADMIN: Actor = { type: 'admin', id: randomUUID() };
const WORKERS: Actor = { type: 'system', id: 'workers' };

/** The order's events as the store recorded them, in this order, each by its actor. */
function recorded(orderId: string, events: Array<[{ type: string; data: unknown }, Actor]>): RecordedEvent[] {
  return events.map(([event, actor], index) => ({
    id: randomUUID(),
    streamId: `order-${orderId}`,
    revision: BigInt(index),
    type: event.type,
    data: event.data,
    metadata: {
      actor,
      correlationId: 'c',
      causationId: 'c',
      schemaVersion: event.type === 'OrderCaptured' ? 2 : 1,
    },
    position: String(index).padStart(20, '0'),
    createdAt: new Date('2026-05-01T09:00:00.000Z'),
  }));
}

const refundCompleted = (orderId: string, at: string) => ({
  type: 'OrderRefundCompleted',
  data: {
    orderId,
    refundId: randomUUID(),
    paypalRefundId: 'REFUND-1',
    units: [],
    amount: '10.00',
    completedAt: at,
  },
});

describe('evidence facts', () => {
  describe('when a refund leaves no unit and the order became refunded with it', () => {
    it('tells that change among the refunds, not as a status changed by hand', () => {
      const captured = orderCaptured({
        name: 'Ada',
        email: 'ada@example.com',
        lines: [orderLine('Office', 1, '10.00')],
        capturedAt: '2026-05-01T09:00:00.000Z',
      });
      const { orderId } = captured.data;
      const at = '2026-05-01T10:00:00.000Z';
      const facts = evidenceFacts(
        orderId,
        recorded(orderId, [
          [captured, WORKERS],
          [statusChanged(orderId, 'processing', 'completed', '2026-05-01T09:30:00.000Z'), ADMIN],
          [refundCompleted(orderId, at), ADMIN],
          [statusChanged(orderId, 'completed', 'refunded', at), ADMIN],
        ]),
        (key) => key,
      );
      expect(facts?.statusChanges).toEqual([
        { at: '2026-05-01T09:30:00.000Z', from: 'processing', to: 'completed', by: ADMIN.id },
      ]);
      expect(facts?.refunds.at(-1)).toEqual({
        at,
        what: 'With that refund no unit was left, so the order went from completed to refunded',
      });
      if (!facts) throw new Error('no facts');
      expect(adminIdsOf(facts)).toEqual([ADMIN.id]);
      expect(withAdminNames(facts, new Map([[ADMIN.id, 'owner']])).statusChanges[0]?.by).toBe('owner');
    });
  });

  describe('when the risk rules held the order', () => {
    it('tells the hold and its decision beside the payment', () => {
      const captured = orderCaptured({
        name: 'Ada',
        email: 'ada@example.com',
        lines: [orderLine('Office', 1, '900.00')],
        capturedAt: '2026-05-01T09:00:00.000Z',
      });
      const { orderId } = captured.data;
      const facts = evidenceFacts(
        orderId,
        recorded(orderId, [
          [captured, WORKERS],
          [
            {
              type: 'OrderHeldForReview',
              data: { orderId, rules: ['order-total'], heldAt: '2026-05-01T09:00:00.000Z' },
            },
            WORKERS,
          ],
          [
            {
              type: 'OrderApproved',
              data: { orderId, automatic: false, approvedAt: '2026-05-01T09:40:00.000Z' },
            },
            ADMIN,
          ],
        ]),
        (key) => key,
      );
      expect(facts?.payment.slice(1)).toEqual([
        {
          at: '2026-05-01T09:00:00.000Z',
          what: 'Held for review by the risk rules (order-total): keys set aside, not delivered',
        },
        { at: '2026-05-01T09:40:00.000Z', what: 'Approved after review' },
      ]);
    });
  });
});
