import type { Product } from '@licensestore/domain';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { productsQueryKey } from '@/features/catalogue/api/get-products';
import { answerOf, apiRequest } from '@/lib/api';
import { toast } from '@/lib/toast';
import type { ProductPayload } from '../utils/product-form-values';

/**
 * Every product query lives under ['/api/products']: this screen's list and the storefront's list, featured
 * grid and detail pages, so a change shows wherever the product does.
 */
const refreshProducts = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ queryKey: productsQueryKey });

export function useCreateProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (payload: ProductPayload) =>
      answerOf<Product>(await apiRequest('POST', '/api/products', payload)),
    onSuccess: async () => {
      toast({ title: 'Product created successfully' });
      await refreshProducts(queryClient);
    },
  });
}

export function useUpdateProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      id,
      payload,
      etag,
    }: {
      id: string;
      payload: ProductPayload;
      /** The ETag the form loaded the product with: a product changed since is refused, never overwritten. */
      etag: string | null;
    }) =>
      answerOf<Product>(
        await apiRequest('PATCH', `/api/products/${encodeURIComponent(id)}`, payload, { ifMatch: etag }),
      ),
    onSuccess: async () => {
      toast({ title: 'Product updated successfully' });
      await refreshProducts(queryClient);
    },
  });
}

export function useDeleteProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest('DELETE', `/api/products/${encodeURIComponent(id)}`),
    onSuccess: async () => {
      toast({ title: 'Product deleted successfully' });
      await refreshProducts(queryClient);
    },
    onError: (error) => {
      toast({ title: 'Error', description: error.message, variant: 'destructive' });
    },
  });
}
