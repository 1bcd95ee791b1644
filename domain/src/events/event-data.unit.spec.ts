import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { orderEventSchemas, parseOrderEvent } from '../orders/events.js';
import { parseEventData } from './event-data.js';
import { checkEventData } from './event-schemas.js';

/** A schema that counts how often it validates. */
function countingSchema() {
  const counted = { validations: 0 };
  const schema = z.object({ name: z.string() }).refine(() => {
    counted.validations++;
    return true;
  });
  return { schema, counted };
}

describe('Event data parsing', () => {
  it('validates one data object against one schema once, and hands every caller that result', () => {
    const { schema, counted } = countingSchema();
    const data = { name: 'Ada', extra: true };
    const first = parseEventData(schema, data);
    const second = parseEventData(schema, data);
    expect(counted.validations).toBe(1);
    expect(second).toBe(first);
    expect(first).toEqual({ name: 'Ada' });
  });

  it('validates the same object again against another schema, and another object with equal content', () => {
    const one = countingSchema();
    const other = countingSchema();
    const data = { name: 'Ada' };
    parseEventData(one.schema, data);
    parseEventData(other.schema, data);
    parseEventData(one.schema, { name: 'Ada' });
    expect(one.counted.validations).toBe(2);
    expect(other.counted.validations).toBe(1);
  });

  it('remembers no failure: data that fails throws for every caller', () => {
    const { schema } = countingSchema();
    const data = { name: 42 };
    expect(() => parseEventData(schema, data)).toThrow();
    expect(() => parseEventData(schema, data)).toThrow();
  });

  describe('when the log read has checked an order event', () => {
    it('gives the order parser the checked data, without a second validation', () => {
      const orderId = randomUUID();
      const data = { orderId, captureId: 'CAPTURE-1', completedAt: '2026-03-01T09:00:00.000Z' };
      checkEventData({ streamId: `order-${orderId}`, type: 'OrderPaymentCompleted', data });
      const validate = vi.spyOn(orderEventSchemas.OrderPaymentCompleted, 'parse');
      try {
        const parsed = parseOrderEvent('OrderPaymentCompleted', data);
        expect(validate).not.toHaveBeenCalled();
        expect(parsed).toEqual({ type: 'OrderPaymentCompleted', data });
      } finally {
        validate.mockRestore();
      }
    });
  });
});
