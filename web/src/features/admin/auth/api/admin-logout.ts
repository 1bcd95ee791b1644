import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { apiRequest } from '@/lib/api';
import { toast } from '@/lib/toast';
import { adminStatusQueryKey } from './admin-status';

/** Signs out and leaves the back office for the storefront. */
export function useAdminLogout() {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  return useMutation({
    mutationFn: () => apiRequest('POST', '/api/admin/logout'),
    onSuccess: () => {
      // Nothing an admin saw (orders, customers, keys) stays in this tab's memory; the status is known at once, so
      // coming back to /admin shows the login screen without a stale admin frame first.
      queryClient.clear();
      queryClient.setQueryData(adminStatusQueryKey, null);
      toast({ title: 'Logged out' });
      navigate('/');
    },
    onError: () => toast({ title: 'Error', description: 'Failed to logout', variant: 'destructive' }),
  });
}
