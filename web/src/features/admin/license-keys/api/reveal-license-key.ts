import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { toast } from '@/lib/toast';
import { LICENSE_KEYS_KEY } from './get-license-keys';

/**
 * Opens one key of the inventory in clear for the signed-in admin (POST /api/license-keys/:keyId/reveal): the
 * server records the showing before it answers, so the key's history gains a step.
 */
export function useRevealInventoryKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (keyId: string) => {
      const response = await apiRequest('POST', `/api/license-keys/${encodeURIComponent(keyId)}/reveal`);
      return ((await response.json()) as { licenseKey: string }).licenseKey;
    },
    onSuccess: (_key, keyId) =>
      queryClient.invalidateQueries({ queryKey: [...LICENSE_KEYS_KEY, keyId, 'history'] }),
    onError: (error) => {
      toast({
        title: 'The license key could not be revealed',
        description: error.message,
        variant: 'destructive',
      });
    },
  });
}
