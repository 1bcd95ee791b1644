import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors/index.js';
import {
  type CatalogueEntry,
  MAX_CART_LINES,
  mergeCartItems,
  ProductUnavailableError,
  priceCart,
  unitPriceCents,
} from './pricing.js';

const active = (overrides: Partial<Extract<CatalogueEntry, { status: 'active' }>> = {}): CatalogueEntry => ({
  status: 'active',
  name: 'Office Suite',
  regularPrice: '249.99',
  salePrice: null,
  inStock: true,
  ...overrides,
});

const catalogue = (entries: Record<string, CatalogueEntry>) => (id: string) =>
  entries[id] ?? ({ status: 'unknown' } as const);

describe('Pricing', () => {
  describe('unit price', () => {
    it('is the sale price when it is below the regular price', () => {
      expect(unitPriceCents({ regularPrice: '249.99', salePrice: '199.50' })).toBe(19950);
    });

    it('is the regular price when the sale price is not lower', () => {
      expect(unitPriceCents({ regularPrice: '20.00', salePrice: '25.00' })).toBe(2000);
      expect(unitPriceCents({ regularPrice: '20.00', salePrice: '20.00' })).toBe(2000);
      expect(unitPriceCents({ regularPrice: '20.00', salePrice: null })).toBe(2000);
    });
  });

  describe('a cart', () => {
    const office = randomUUID();
    const windows = randomUUID();

    it('is priced in integer cents from the catalogue, without floating-point drift', () => {
      const cart = priceCart(
        [
          { productId: office, quantity: 3 },
          { productId: windows, quantity: 1 },
        ],
        catalogue({
          [office]: active({ regularPrice: '0.10' }),
          [windows]: active({ name: 'Windows 11 Pro', regularPrice: '199.99', salePrice: '0.20' }),
        }),
      );
      expect(cart).toEqual({
        lines: [
          {
            productId: office,
            productName: 'Office Suite',
            quantity: 3,
            unitPrice: '0.10',
            lineTotal: '0.30',
          },
          {
            productId: windows,
            productName: 'Windows 11 Pro',
            quantity: 1,
            unitPrice: '0.20',
            lineTotal: '0.20',
          },
        ],
        totalCents: 50,
        total: '0.50',
        currency: 'USD',
      });
    });

    it('merges lines of the same product', () => {
      expect(
        mergeCartItems([
          { productId: office, quantity: 2 },
          { productId: windows, quantity: 1 },
          { productId: office, quantity: 3 },
        ]),
      ).toEqual([
        { productId: office, quantity: 5 },
        { productId: windows, quantity: 1 },
      ]);
    });

    it('refuses quantities outside 1 to 10, also after merging', () => {
      expect(() => mergeCartItems([{ productId: office, quantity: 0 }])).toThrow(ValidationError);
      expect(() => mergeCartItems([{ productId: office, quantity: 11 }])).toThrow('between 1 and 10');
      expect(() =>
        mergeCartItems([
          { productId: office, quantity: 6 },
          { productId: office, quantity: 5 },
        ]),
      ).toThrow(`Quantity of product ${office} must be between 1 and 10, not 11`);
      expect(() => mergeCartItems([{ productId: office, quantity: 1.5 }])).toThrow(ValidationError);
    });

    it('refuses an empty cart and one with too many products', () => {
      expect(() => mergeCartItems([])).toThrow('The cart is empty');
      const many = Array.from({ length: MAX_CART_LINES + 1 }, () => ({
        productId: randomUUID(),
        quantity: 1,
      }));
      expect(() => mergeCartItems(many)).toThrow(`at most ${MAX_CART_LINES} different products`);
    });

    it('refuses unknown, deleted and out-of-stock products, naming them', () => {
      const deleted = randomUUID();
      const gone = randomUUID();
      const lookup = catalogue({
        [office]: active({ inStock: false }),
        [deleted]: { status: 'deleted', name: 'Norton 360' },
        [gone]: { status: 'deleted', name: null },
      });
      const price = (productId: string) => () => priceCart([{ productId, quantity: 1 }], lookup);
      expect(price(office)).toThrow(ProductUnavailableError);
      expect(price(office)).toThrow("'Office Suite' is out of stock");
      expect(price(deleted)).toThrow("'Norton 360' is no longer sold");
      expect(price(gone)).toThrow(`Product ${gone} is no longer sold`);
      expect(price(windows)).toThrow(`Unknown product ${windows}`);
    });

    it('refuses a total of zero (PayPal cannot charge it)', () => {
      expect(() =>
        priceCart(
          [{ productId: office, quantity: 1 }],
          catalogue({ [office]: active({ regularPrice: '0.00' }) }),
        ),
      ).toThrow('The cart total must be above zero');
    });
  });
});
