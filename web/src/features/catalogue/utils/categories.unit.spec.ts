import type { Product } from '@licensestore/domain';
import { describe, expect, it } from 'vitest';
import { ALL_CATEGORIES, categoriesOf, inCategory } from './categories';

const product = (id: string, category: string): Product => ({
  id,
  category,
  name: id,
  description: '',
  imageUrl: '',
  platform: 'Windows',
  downloadUrl: null,
  installationNotes: null,
  keyFormat: null,
  regularPrice: '10.00',
  salePrice: null,
  featured: false,
  inStock: true,
});

const products = [product('a', 'Antivirus'), product('b', 'Office Suites'), product('c', 'Antivirus')];

describe('categoriesOf', () => {
  it('lists each category once, in order of first appearance', () => {
    expect(categoriesOf(products)).toEqual(['Antivirus', 'Office Suites']);
  });
});

describe('inCategory', () => {
  it('keeps every product for All', () => {
    expect(inCategory(products, ALL_CATEGORIES)).toBe(products);
  });

  it('keeps only the products of the chosen category', () => {
    expect(inCategory(products, 'Antivirus').map((item) => item.id)).toEqual(['a', 'c']);
  });
});
