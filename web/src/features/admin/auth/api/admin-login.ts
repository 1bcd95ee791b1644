import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { apiRequest } from '@/lib/api';
import { toast } from '@/lib/toast';
import { adminStatusQueryKey } from './admin-status';

export interface AdminCredentials {
  username: string;
  password: string;
}

/** A sign-in the server answered with a 4xx (wrong credentials, too many attempts): its `{error}` is for the user. */
class LoginRefused extends Error {}

/** apiRequest's errors read "<status>: <body>"; the body of a refusal is `{"error": "..."}`. */
function refusalOf(error: unknown): LoginRefused | null {
  const match = error instanceof Error ? /^4\d\d: ([\s\S]*)$/.exec(error.message) : null;
  if (!match) return null;
  try {
    const body = JSON.parse(match[1] ?? '') as { error?: unknown };
    return new LoginRefused(
      typeof body.error === 'string' && body.error ? body.error : 'Invalid credentials',
    );
  } catch {
    return new LoginRefused('Invalid credentials');
  }
}

async function postAdminLogin(credentials: AdminCredentials): Promise<void> {
  try {
    await apiRequest('POST', '/api/admin/login', credentials);
  } catch (error) {
    throw refusalOf(error) ?? error;
  }
}

/** Signs in; on success goes to the dashboard and reads the admin status again. */
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
