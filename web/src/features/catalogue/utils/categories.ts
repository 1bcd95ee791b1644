import type { Product } from '@licensestore/domain';

/** The filter value that shows every product. */
export const ALL_CATEGORIES = 'All';

/** Each distinct category of the products, in order of first appearance (the API's listing order). */
export const categoriesOf = (products: Product[]): string[] => [
  ...new Set(products.map((product) => product.category)),
];

export const inCategory = (products: Product[], category: string): Product[] =>
  category === ALL_CATEGORIES ? products : products.filter((product) => product.category === category);
