import type { Product } from '@licensestore/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getTaggedJson } from '@/lib/api';

/**
 * The product as its edit form starts from it: read from the product's own events, with the ETag its save sends as
 * If-Match. Never kept between openings (no cache time, always stale): each edit starts from the product as it is.
 */
export const adminProductQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['/api/admin/products', id],
    queryFn: () => getTaggedJson<Product>(`/api/admin/products/${encodeURIComponent(id)}`),
    staleTime: 0,
    gcTime: 0,
  });

export const useAdminProduct = (id: string) => useQuery(adminProductQueryOptions(id));
