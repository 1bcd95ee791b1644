import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { IllegalStateError } from '../errors/index.js';
import type { OrderEvent } from '../orders/events.js';
import { orderDecider } from '../orders/index.js';
import type { OrderCommand } from '../orders/order.js';
import { givenHistory } from '../testing/given.js';
import { twoLineOrder } from '../testing/two-line-order.js';
import { formatReceiptNumber, nextReceiptNumber, receiptsStream, receiptYear } from './numbering.js';

const orderId = randomUUID();
const now = '2027-01-01T00:05:00.000Z';

/** The order placed by a capture at `capturedAt`, paid or still pending: what decides the year of its receipt. */
const captured = (captureStatus: 'COMPLETED' | 'PENDING', capturedAt: string) =>
  twoLineOrder(capturedAt, orderId).captured(captureStatus);
const requested = (year: number, receiptsAfterRevision: number | null): OrderEvent => ({
  type: 'OrderReceiptRequested',
  data: { orderId, year, receiptsAfterRevision, requestedAt: now },
});
const issued = (receiptNumber: string): OrderEvent => ({
  type: 'OrderReceiptIssued',
  data: { orderId, receiptNumber, issuedAt: now },
});

const givenOrder = givenHistory(orderDecider);

const request = (year: number, receiptsAfterRevision: number | null = null): OrderCommand => ({
  type: 'RequestReceipt',
  orderId,
  year,
  receiptsAfterRevision,
  now,
});
const issue = (receiptNumber: string): OrderCommand => ({
  type: 'IssueReceipt',
  orderId,
  receiptNumber,
  now,
});

describe('Receipt numbers', () => {
  it('are the year and a six-digit sequence, growing wider past 999,999', () => {
    expect(formatReceiptNumber(2026, 1)).toBe('2026-000001');
    expect(formatReceiptNumber(2026, 123_456)).toBe('2026-123456');
    expect(formatReceiptNumber(2026, 1_000_000)).toBe('2026-1000000');
    expect(receiptsStream(2026)).toBe('receipts-2026');
  });

  it('count in the UTC year of the payment', () => {
    expect(receiptYear('2026-12-31T23:59:59.999Z')).toBe(2026);
    expect(receiptYear('2027-01-01T00:00:00.000Z')).toBe(2027);
    // 23:30 on 31 December in New York is already 2027 in UTC.
    expect(receiptYear('2026-12-31T23:30:00-05:00')).toBe(2027);
  });

  describe('the next number', () => {
    const assignment = { orderId, year: 2026, now };

    it('is 1 in a year without receipts', () => {
      expect(nextReceiptNumber(null, assignment)).toEqual({
        year: 2026,
        sequence: 1,
        receiptNumber: '2026-000001',
        orderId,
        assignedAt: now,
      });
    });

    it("follows the year's last number by one", () => {
      const last = nextReceiptNumber(null, { ...assignment, orderId: randomUUID() });
      expect(nextReceiptNumber({ ...last, sequence: 41 }, assignment)).toMatchObject({
        sequence: 42,
        receiptNumber: '2026-000042',
        orderId,
      });
    });

    it("never follows another year's number", () => {
      const last = nextReceiptNumber(null, { ...assignment, year: 2027 });
      expect(() => nextReceiptNumber(last, assignment)).toThrow('the receipts of 2026 cannot follow');
    });
  });
});

describe('Order receipt', () => {
  describe('when the capture completed', () => {
    it("asks for a number of the payment's year, naming the year stream's last revision", () => {
      givenOrder(captured('COMPLETED', '2026-12-31T23:59:59.000Z'))
        .when(request(2026, 41))
        .thenEmits(requested(2026, 41));
    });

    it('refuses a number of another year than the payment', () => {
      givenOrder(captured('COMPLETED', '2026-12-31T23:59:59.000Z'))
        .when(request(2027))
        .thenFails(IllegalStateError, 'was paid in 2026: its receipt is not one of 2027');
    });

    it('asks once: a second request keeps the first one', () => {
      givenOrder(captured('COMPLETED', '2026-06-01T10:00:00.000Z'), requested(2026, null))
        .when(request(2026, 7))
        .thenEmitsNothing();
    });
  });

  describe('when the capture is PENDING', () => {
    it('has no receipt while PayPal holds the money', () => {
      givenOrder(captured('PENDING', '2026-12-31T23:00:00.000Z'))
        .when(request(2026))
        .thenFails(IllegalStateError, 'is not paid (payment pending)');
    });

    it('is numbered in the year the payment completed once it does', () => {
      givenOrder(captured('PENDING', '2026-12-31T23:00:00.000Z'), {
        type: 'OrderPaymentCompleted',
        data: { orderId, captureId: 'CAP1', completedAt: '2027-01-01T00:00:00.000Z' },
      })
        .when(request(2027))
        .thenEmits(requested(2027, null));
    });

    it('never has one when the payment is denied', () => {
      givenOrder(captured('PENDING', '2026-06-01T10:00:00.000Z'), {
        type: 'OrderPaymentDenied',
        data: { orderId, captureId: 'CAP1', deniedAt: '2026-06-02T10:00:00.000Z' },
      })
        .when(request(2026))
        .thenFails(IllegalStateError, 'is not paid (payment denied)');
    });
  });

  describe('when a number was asked for', () => {
    const history = [captured('COMPLETED', '2026-06-01T10:00:00.000Z'), requested(2026, 3)];

    it('records the number the year stream gave', () => {
      givenOrder(...history)
        .when(issue('2026-000005'))
        .thenEmits(issued('2026-000005'));
    });

    it('records the same number again as nothing (a retried job)', () => {
      givenOrder(...history, issued('2026-000005'))
        .when(issue('2026-000005'))
        .thenEmitsNothing();
    });

    it('never gives the order a second number', () => {
      givenOrder(...history, issued('2026-000005'))
        .when(issue('2026-000006'))
        .thenFails(IllegalStateError, 'holds receipt 2026-000005; it cannot also be 2026-000006');
    });
  });

  it('takes no number before asking for one', () => {
    givenOrder(captured('COMPLETED', '2026-06-01T10:00:00.000Z'))
      .when(issue('2026-000001'))
      .thenFails(IllegalStateError, 'has not asked for a receipt number');
  });
});
