import type { Product } from '@licensestore/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '@/lib/api';

/** Key parts joined by '/' are the URL; product mutations invalidate everything under it. */
export const productsQueryKey = ['/api/products'] as const;

export const getProducts = (): Promise<Product[]> => getJson<Product[]>('/api/products', { on401: 'throw' });

export const productsQueryOptions = () => queryOptions({ queryKey: productsQueryKey, queryFn: getProducts });

export const useProducts = () => useQuery(productsQueryOptions());
