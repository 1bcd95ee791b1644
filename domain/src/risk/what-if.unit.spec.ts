import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { OrderEvent } from '../orders/events.js';
import { NO_RISK_RULES, type RiskRules } from './rules.js';
import { WhatIfFold, whatIfResultSchema } from './what-if.js';

const ADDRESS = 'a'.repeat(64);
const period = { from: '2026-01-01T00:00:00.000Z', to: '2027-01-01T00:00:00.000Z' };

function captured(at: string, total: string, email: string, clientHash?: string) {
  const orderId = randomUUID();
  const event: OrderEvent = {
    type: 'OrderCaptured',
    data: {
      orderId,
      paypalOrderId: `P-${orderId}`,
      captureId: `C-${orderId}`,
      captureStatus: 'COMPLETED',
      customer: { name: 'Buyer', email },
      lines: [
        {
          lineId: 'L1',
          productId: randomUUID(),
          productName: 'Suite',
          quantity: 1,
          unitPrice: total,
          lineTotal: total,
        },
      ],
      total,
      currency: 'USD',
      status: 'processing',
      ...(clientHash ? { clientHash } : {}),
      capturedAt: at,
    },
  };
  return { orderId, event };
}

const refunded = (orderId: string, at: string): OrderEvent => ({
  type: 'OrderRefundCompleted',
  data: {
    orderId,
    refundId: null,
    paypalRefundId: `R-${orderId}`,
    units: [],
    amount: '1.00',
    completedAt: at,
  },
});

const run = (draft: Partial<RiskRules>, current: Partial<RiskRules>, events: OrderEvent[]) => {
  const fold = new WhatIfFold({ ...NO_RISK_RULES, ...draft }, { ...NO_RISK_RULES, ...current }, period);
  for (const event of events) fold.apply(event);
  return fold.result();
};

describe('What-if', () => {
  describe('on a history whose answer is known', () => {
    // Before the period: one order by ada (so her later orders are not first orders). In it: a $600 first order in
    // March (refunded in April), a $50 order in March, ada's $700 order in May, and five orders from one address
    // within ten minutes in June (the fifth is more than four).
    const before = captured('2025-12-20T10:00:00.000Z', '20.00', 'ada@example.com');
    const bigFirst = captured('2026-03-02T10:00:00.000Z', '600.00', 'new@example.com');
    const small = captured('2026-03-03T10:00:00.000Z', '50.00', 'bob@example.com');
    const adaBig = captured('2026-05-05T10:00:00.000Z', '700.00', 'ada@example.com');
    const burst = [0, 1, 2, 3, 4].map((n) =>
      captured(`2026-06-01T10:0${n}:00.000Z`, '10.00', `burst${n}@example.com`, ADDRESS),
    );
    const history = [
      before.event,
      bigFirst.event,
      small.event,
      refunded(bigFirst.orderId, '2026-04-01T00:00:00.000Z'),
      adaBig.event,
      ...burst.map((order) => order.event),
    ];

    it('counts the orders in the period, what the draft holds and its value, and what was refunded later', () => {
      const result = run(
        { holdAtOrAbove: '500.00', velocity: { windowMinutes: 10, maxOrders: 4, maxEmails: null } },
        { firstOrderAtOrAbove: '500.00' },
        history,
      );
      expect(result).toMatchObject({
        orders: 8,
        held: 3,
        heldValue: '1310.00',
        heldLaterRefundedOrDenied: 1,
        currentRulesHeld: 1,
        perRule: [
          { rule: 'order-total', held: 2, heldValue: '1300.00' },
          { rule: 'velocity-orders', held: 1, heldValue: '10.00' },
        ],
      });
      expect(result.perMonth).toEqual([
        {
          month: '2026-03',
          orders: 2,
          held: 1,
          heldValue: '600.00',
          heldLaterRefundedOrDenied: 1,
          currentRulesHeld: 1,
        },
        {
          month: '2026-05',
          orders: 1,
          held: 1,
          heldValue: '700.00',
          heldLaterRefundedOrDenied: 0,
          currentRulesHeld: 0,
        },
        {
          month: '2026-06',
          orders: 5,
          held: 1,
          heldValue: '10.00',
          heldLaterRefundedOrDenied: 0,
          currentRulesHeld: 0,
        },
      ]);
    });

    it('takes no order before the period into the figures, only into the history', () => {
      const result = run({ firstOrderAtOrAbove: '10.00' }, {}, history);
      // ada's May order is not her first: her December order counts as history.
      expect(result.perRule).toEqual([{ rule: 'first-order', held: 7, heldValue: '700.00' }]);
    });
  });

  it('sums what it would have held past the largest amount one order may have, as a run of a big store does', () => {
    const orders = Array.from(
      { length: 12 },
      (_, n) =>
        captured(`2026-03-${String(n + 1).padStart(2, '0')}T12:00:00.000Z`, '9999999.99', `b${n}@example.com`)
          .event,
    );
    const result = run({ holdAtOrAbove: '500.00' }, {}, orders);
    expect(result.heldValue).toBe('119999999.88');
    // The run is recorded with these figures: they must read back under the event's own schema.
    expect(whatIfResultSchema.parse(result)).toEqual(result);
  });
});
