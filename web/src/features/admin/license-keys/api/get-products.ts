import type { Product } from '@licensestore/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '@/lib/api';

/** The catalogue, for the product pickers (same key as the storefront's list: one cached copy). */
export const productsQueryOptions = () =>
  queryOptions({
    queryKey: ['/api/products'],
    queryFn: () => getJson<Product[]>('/api/products', { on401: 'throw' }),
  });

export const useProducts = () => useQuery(productsQueryOptions());
