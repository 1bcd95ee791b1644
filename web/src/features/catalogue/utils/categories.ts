import type { Product } from '@licensestore/domain';

/** The filter value that shows every product. */
export const ALL_CATEGORIES = 'All';

/** `/products?category=Office`: the chosen category is in the URL, so the server renders the page it names. */
export const CATEGORY_PARAM = 'category';
/** `/products?sale` (the promo banner's "Shop the sale") lists only the products on sale. */
export const SALE_PARAM = 'sale';

/** The products page's URL for a category, among the products on sale or all of them. */
export function productsUrl(category: string, saleOnly: boolean): string {
  const query = [
    ...(saleOnly ? [SALE_PARAM] : []),
    ...(category === ALL_CATEGORIES ? [] : [`${CATEGORY_PARAM}=${encodeURIComponent(category)}`]),
  ].join('&');
  return query ? `/products?${query}` : '/products';
}

/** Each distinct category of the products, in order of first appearance (the API's listing order). */
export const categoriesOf = (products: Product[]): string[] => [
  ...new Set(products.map((product) => product.category)),
];

export const inCategory = (products: Product[], category: string): Product[] =>
  category === ALL_CATEGORIES ? products : products.filter((product) => product.category === category);
