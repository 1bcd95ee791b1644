import type { Product } from '@licensestore/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '@/lib/api';
import { productsQueryKey } from './get-products';

export const featuredProductsQueryKey = [...productsQueryKey, 'featured'] as const;

export const getFeaturedProducts = (): Promise<Product[]> =>
  getJson<Product[]>(featuredProductsQueryKey.join('/'), { on401: 'throw' });

export const featuredProductsQueryOptions = () =>
  queryOptions({ queryKey: featuredProductsQueryKey, queryFn: getFeaturedProducts });

export const useFeaturedProducts = () => useQuery(featuredProductsQueryOptions());
