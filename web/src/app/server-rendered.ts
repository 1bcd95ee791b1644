import type { QueryKey } from '@tanstack/react-query';
import { featuredProductsQueryKey } from '@/features/catalogue/api/get-featured-products';
import { productQueryKey } from '@/features/catalogue/api/get-product';
import { productsQueryKey } from '@/features/catalogue/api/get-products';
import { testimonialsQueryKey } from '@/features/testimonials/api/get-testimonials';

const PRODUCT_PAGE = /^\/product\/([^/]+)$/;

/**
 * The storefront's public pages, drawn on the server: by path, the queries their first render reads (each key joined
 * by '/' is the store's URL for it). Every other page (cart, checkout, account, back office) is drawn in the browser
 * only: null.
 */
export function serverRenderedQueries(path: string): QueryKey[] | null {
  if (path === '/') return [featuredProductsQueryKey, testimonialsQueryKey];
  if (path === '/products') return [productsQueryKey];
  const product = PRODUCT_PAGE.exec(path);
  if (product?.[1]) return [productQueryKey(decodeURIComponent(product[1]))];
  return null;
}
