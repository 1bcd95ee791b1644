import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { toast } from '@/lib/toast';
import { refreshInventory } from './refresh-inventory';

/** DELETE /api/license-keys/:id; the server refuses assigned keys (409) even if a stale list offered one. */
export function useDeleteLicenseKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (keyId: string) => apiRequest('DELETE', `/api/license-keys/${encodeURIComponent(keyId)}`),
    onSuccess: async () => {
      toast({ title: 'License key deleted successfully' });
      await refreshInventory(queryClient);
    },
    onError: async (error) => {
      toast({ title: 'Error', description: error.message, variant: 'destructive' });
      // The key may have been assigned meanwhile: show what it is now.
      await refreshInventory(queryClient);
    },
  });
}
