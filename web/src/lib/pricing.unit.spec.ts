import { describe, expect, it } from 'vitest';
import { saleOf } from './pricing';

describe('saleOf', () => {
  it('is on sale when the sale price is below the regular price, with the rounded percentage', () => {
    expect(saleOf({ regularPrice: '249.99', salePrice: '99.99' })).toEqual({
      regularPrice: '249.99',
      salePrice: '99.99',
      percentOff: 60,
    });
    expect(saleOf({ regularPrice: '30.00', salePrice: '20.00' })?.percentOff).toBe(33);
  });

  it('is not on sale without a sale price, or when it is not lower', () => {
    expect(saleOf({ regularPrice: '49.99', salePrice: null })).toBeNull();
    expect(saleOf({ regularPrice: '49.99', salePrice: '49.99' })).toBeNull();
    expect(saleOf({ regularPrice: '49.99', salePrice: '59.99' })).toBeNull();
  });
});
