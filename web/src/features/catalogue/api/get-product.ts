import type { Product } from '@licensestore/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '@/lib/api';
import { productsQueryKey } from './get-products';

/** ['/api/products', id]: the default read's URL is /api/products/{id}. */
export const productQueryKey = (id: string) => [...productsQueryKey, id] as const;

/**
 * One product, or null when there is none. The id 'featured' shares this key space with the featured list (the
 * same URL and query key), so a list answer, fetched or cached, also means "no such product".
 */
export const productQueryOptions = (id: string) =>
  queryOptions({
    queryKey: productQueryKey(id),
    queryFn: () => getJson<Product | Product[]>(productQueryKey(id).join('/'), { on401: 'throw' }),
    select: (answer): Product | null => (Array.isArray(answer) ? null : answer),
    enabled: id !== '',
  });

export const useProduct = (id: string) => useQuery(productQueryOptions(id));
