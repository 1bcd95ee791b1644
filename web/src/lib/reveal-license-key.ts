import { keyRevealSchema } from '@licensestore/contract/license-keys';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { toast } from '@/lib/toast';

/** The query key of a key's custody history, which gains a step with each reveal. */
export const keyHistoryKey = (keyId: string) => ['/api/license-keys', keyId, 'history'] as const;

/**
 * Opens one license key in clear for the signed-in admin (POST /api/license-keys/:keyId/reveal), whether it is in
 * stock or an order's: the server records the showing before it answers, so every reveal is on the key's history.
 */
export function useRevealLicenseKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (keyId: string) => {
      const response = await apiRequest('POST', `/api/license-keys/${encodeURIComponent(keyId)}/reveal`);
      return keyRevealSchema.parse(await response.json()).licenseKey;
    },
    onSuccess: (_key, keyId) => queryClient.invalidateQueries({ queryKey: keyHistoryKey(keyId) }),
    onError: (error) => {
      toast({
        title: 'The license key could not be revealed',
        description: error.message,
        variant: 'destructive',
      });
    },
  });
}
