import type { StockMismatch } from '@licensestore/contract/license-keys';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { productsQueryKey } from '@/features/catalogue/api/get-products';
import { apiRequest, getJson } from '@/lib/api';
import { toast } from '@/lib/toast';

export const stockMismatchesQueryKey = ['/api/admin/stock-mismatches'] as const;

export const stockMismatchesQueryOptions = () =>
  queryOptions({
    queryKey: stockMismatchesQueryKey,
    queryFn: () => getJson<StockMismatch[]>(stockMismatchesQueryKey[0], { on401: 'throw' }),
  });

export const useStockMismatches = () => useQuery(stockMismatchesQueryOptions());

/** The product command an edit would send, with In Stock set to what the inventory says. */
export function useFixStock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ productId, inStock }: { productId: string; inStock: boolean }) =>
      apiRequest('PATCH', `/api/products/${encodeURIComponent(productId)}`, { inStock }),
    onSuccess: async (_response, { inStock }) => {
      toast({ title: inStock ? 'Marked in stock' : 'Marked out of stock' });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: productsQueryKey }),
        queryClient.invalidateQueries({ queryKey: stockMismatchesQueryKey }),
      ]);
    },
    onError: (error) => {
      toast({ title: 'Error', description: error.message, variant: 'destructive' });
    },
  });
}
