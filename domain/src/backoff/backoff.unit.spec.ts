import { afterEach, describe, expect, it, vi } from 'vitest';
import { backoffDelay } from './index.js';

describe('backoffDelay', () => {
  afterEach(() => vi.restoreAllMocks());

  describe('without jitter', () => {
    it('waits the first delay after the first failure, and after none', () => {
      expect(backoffDelay(1, { firstMs: 200 })).toBe(200);
      expect(backoffDelay(0, { firstMs: 200 })).toBe(200);
    });

    it('doubles the wait with each further failure, up to the longest', () => {
      const waits = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((failures) =>
        backoffDelay(failures, { firstMs: 200, maxMs: 30_000 }),
      );
      expect(waits).toEqual([200, 400, 800, 1600, 3200, 6400, 12_800, 25_600, 30_000]);
    });
  });

  describe('with jitter', () => {
    it('waits a random part of the delay (full), or of its second half (half)', () => {
      vi.spyOn(Math, 'random').mockReturnValue(0.25);
      expect(backoffDelay(3, { firstMs: 100, jitter: 'full' })).toBe(100);
      expect(backoffDelay(3, { firstMs: 100, jitter: 'half' })).toBe(250);
    });

    it('never waits longer than the delay', () => {
      vi.spyOn(Math, 'random').mockReturnValue(0.999);
      expect(backoffDelay(10, { firstMs: 10, maxMs: 500, jitter: 'full' })).toBeLessThan(500);
      expect(backoffDelay(10, { firstMs: 10, maxMs: 500, jitter: 'half' })).toBeLessThan(500);
    });
  });
});
