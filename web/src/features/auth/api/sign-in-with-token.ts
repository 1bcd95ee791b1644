import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { apiRequest } from '@/lib/api';
import { userQueryKey } from './get-user';

/** Signs in with the token of an e-mailed link, then shows My Orders as the signed-in customer. */
export function useSignInWithToken() {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  return useMutation({
    mutationFn: (token: string) => apiRequest('POST', '/api/login/callback', { token }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: userQueryKey });
      navigate('/account', { replace: true });
    },
  });
}
