import type { ProductEvent } from '@licensestore/domain';
import { describe, expect, it } from 'vitest';
import { foldProductEvents } from '../src/products/projector.js';
import { productCreated, productFields } from './support/orders.js';

const id = '6f1c1d9e-3f0a-4d52-9a53-0d1a7f0f3a11';
const created = productCreated(id, productFields(), '2026-01-01T10:00:00.000Z');
const updated = (changes: object, at: string): ProductEvent => ({
  type: 'ProductUpdated',
  data: { productId: id, changes, updatedAt: at },
});
const deleted: ProductEvent = {
  type: 'ProductDeleted',
  data: { productId: id, deletedAt: '2026-01-03T10:00:00.000Z' },
};

describe('foldProductEvents', () => {
  describe('when a batch creates and then edits a product', () => {
    it('keeps one whole row with the latest values', () => {
      const folded = foldProductEvents([
        created,
        updated({ salePrice: '149.00' }, '2026-01-02T10:00:00.000Z'),
        updated({ featured: true, salePrice: null }, '2026-01-02T11:00:00.000Z'),
      ]);
      expect(folded.get(id)).toEqual({
        kind: 'row',
        row: expect.objectContaining({
          id,
          regular_price: '199.00',
          sale_price: null,
          featured: true,
          created_at: '2026-01-01T10:00:00.000Z',
          updated_at: '2026-01-02T11:00:00.000Z',
        }),
      });
    });
  });

  describe('when a batch only edits a product stored earlier', () => {
    it('merges the changes, later ones winning, including an explicit null', () => {
      const folded = foldProductEvents([
        updated({ salePrice: '149.00', inStock: false }, '2026-01-02T10:00:00.000Z'),
        updated({ salePrice: null }, '2026-01-02T11:00:00.000Z'),
      ]);
      expect(folded.get(id)).toEqual({
        kind: 'changes',
        changes: { salePrice: null, inStock: false },
        updatedAt: '2026-01-02T11:00:00.000Z',
      });
    });
  });

  describe('when a product is deleted', () => {
    it('ends as a deletion, and later edits are ignored', () => {
      const folded = foldProductEvents([
        created,
        deleted,
        updated({ name: 'Windows 11 Home' }, '2026-01-04T10:00:00.000Z'),
      ]);
      expect(folded.get(id)).toEqual({ kind: 'deleted' });
    });

    it('is a whole row again when it is created anew', () => {
      const folded = foldProductEvents([deleted, created]);
      expect(folded.get(id)?.kind).toBe('row');
    });
  });
});
