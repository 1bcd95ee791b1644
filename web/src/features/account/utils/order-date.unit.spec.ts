import { describe, expect, it } from 'vitest';
import { orderDate } from './order-date';

describe('orderDate', () => {
  it('writes the created date in long form', () => {
    // Midday UTC: the same calendar day in every time zone the tests may run in.
    expect(orderDate('2026-11-24T12:00:00.000Z')).toBe('November 24, 2026');
  });

  it.each([null, undefined, '', 'not a date'])('is N/A without a usable date (%s)', (createdAt) => {
    expect(orderDate(createdAt)).toBe('N/A');
  });
});
