import type { AddLicenseKeyRequest } from '@licensestore/contract/license-keys';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { toast } from '@/lib/toast';
import { refreshInventory } from './refresh-inventory';

/** POST /api/license-keys {productId, key}; failures (duplicate, unreadable key) are shown by the form. */
export function useAddLicenseKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: AddLicenseKeyRequest) => {
      await apiRequest('POST', '/api/license-keys', body);
    },
    onSuccess: async () => {
      toast({ title: 'License key added successfully' });
      await refreshInventory(queryClient);
    },
  });
}
