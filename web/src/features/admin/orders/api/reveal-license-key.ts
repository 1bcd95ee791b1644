import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { toast } from '@/lib/toast';

interface RevealedKey {
  keyId: string;
  licenseKey: string;
}

/**
 * Opens one of the order's keys in clear for the signed-in admin (POST …/keys/:keyId/reveal): the server records
 * the reveal before it answers, so each use is on the key's history.
 */
export function useRevealLicenseKey(orderId: string) {
  return useMutation({
    mutationFn: async (keyId: string) => {
      const response = await apiRequest(
        'POST',
        `/api/orders/${encodeURIComponent(orderId)}/keys/${encodeURIComponent(keyId)}/reveal`,
      );
      return ((await response.json()) as RevealedKey).licenseKey;
    },
    onError: (error) => {
      toast({
        title: 'The license key could not be revealed',
        description: error.message,
        variant: 'destructive',
      });
    },
  });
}
