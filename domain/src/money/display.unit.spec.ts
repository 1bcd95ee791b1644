import { describe, expect, it } from 'vitest';
import { displayCents } from './display.js';

describe('displayCents', () => {
  it.each([
    [0, '$0.00'],
    [5, '$0.05'],
    [1999, '$19.99'],
    [202787, '$2,027.87'],
    [123456789, '$1,234,567.89'],
    [-500, '-$5.00'],
  ])('shows %i cents as %s', (cents, shown) => {
    expect(displayCents(cents)).toBe(shown);
  });
});
