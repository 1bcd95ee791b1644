import type { AdminLoginRequest } from '@licensestore/contract/back-office';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { ApiError, apiRequest } from '@/lib/api';
import { toast } from '@/lib/toast';
import { adminStatusQueryKey } from './admin-status';

/** A sign-in the server answered with a 4xx (wrong credentials, too many attempts): its `{error}` is for the user. */
class LoginRefused extends Error {}

function refusalOf(error: unknown): LoginRefused | null {
  if (!(error instanceof ApiError) || error.status < 400 || error.status >= 500) return null;
  return new LoginRefused(error.reason ?? 'Invalid credentials');
}

async function postAdminLogin(credentials: AdminLoginRequest): Promise<void> {
  try {
    await apiRequest('POST', '/api/admin/login', credentials);
  } catch (error) {
    throw refusalOf(error) ?? error;
  }
}

/** Signs in; on success goes to the dashboard and reads the admin status again, so the panel opens at once. */
export function useAdminLogin() {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  return useMutation({
    mutationFn: postAdminLogin,
    onSuccess: () => {
      toast({ title: 'Login successful', description: 'Welcome to admin panel' });
      // The login form leaves the history: Back from the dashboard should not return to it.
      navigate('/admin', { replace: true });
      void queryClient.invalidateQueries({ queryKey: adminStatusQueryKey });
    },
    onError: (error) => {
      if (error instanceof LoginRefused) {
        toast({ title: 'Login failed', description: error.message, variant: 'destructive' });
      } else {
        toast({ title: 'Error', description: 'Failed to login. Please try again.', variant: 'destructive' });
      }
    },
  });
}
