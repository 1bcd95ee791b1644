import type { Product } from '@licensestore/domain';
import { describe, expect, it } from 'vitest';
import {
  addLine,
  type CartLine,
  itemCount,
  MAX_QUANTITY,
  parseCart,
  removeLine,
  setLineQuantity,
  subtotalCents,
} from './cart-store';

const product = (overrides: Partial<Product> = {}): Product => ({
  id: 'p1',
  name: 'Office 2021',
  description: '',
  imageUrl: '/images/products/office.svg',
  category: 'Office Suites',
  platform: 'Windows',
  downloadUrl: null,
  installationNotes: null,
  keyFormat: null,
  regularPrice: '249.99',
  salePrice: null,
  featured: false,
  inStock: true,
  ...overrides,
});

describe('the cart', () => {
  it('adds a new product as one line of quantity 1, at the sale price when on sale', () => {
    expect(addLine([], product({ salePrice: '99.99' }))).toEqual([
      {
        productId: 'p1',
        productName: 'Office 2021',
        price: 99.99,
        imageUrl: '/images/products/office.svg',
        quantity: 1,
      },
    ]);
  });

  it('uses the regular price when the sale price is not lower', () => {
    expect(addLine([], product({ salePrice: '300.00' }))[0]?.price).toBe(249.99);
  });

  it('raises the quantity by 1 when the product is added again, up to the maximum', () => {
    let lines: CartLine[] = [];
    for (let i = 0; i < MAX_QUANTITY + 2; i++) lines = addLine(lines, product());
    expect(lines).toHaveLength(1);
    expect(lines[0]?.quantity).toBe(MAX_QUANTITY);
  });

  it('never sets a quantity below 1', () => {
    const lines = setLineQuantity(addLine([], product()), 'p1', 0);
    expect(lines[0]?.quantity).toBe(1);
  });

  it('removes lines and sums in cents', () => {
    let lines = addLine(
      addLine([], product({ regularPrice: '19.99' })),
      product({ id: 'p2', regularPrice: '0.10' }),
    );
    lines = setLineQuantity(lines, 'p1', 3);
    expect(subtotalCents(lines)).toBe(5997 + 10);
    expect(itemCount(lines)).toBe(4);
    expect(removeLine(lines, 'p1').map((line) => line.productId)).toEqual(['p2']);
  });

  it('reads back what it stored and drops what it cannot read', () => {
    const lines = addLine([], product());
    expect(parseCart(JSON.stringify(lines))).toEqual(lines);
    expect(parseCart('not json')).toEqual([]);
    expect(parseCart('{"a":1}')).toEqual([]);
    expect(parseCart(JSON.stringify([...lines, { productId: 'x', quantity: 0 }]))).toEqual(lines);
  });
});
