import type { BackOfficeRole, BackOfficeUserView } from '@licensestore/shared/back-office';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, getJson } from '@/lib/api';
import { toast } from '@/lib/toast';

const USERS_KEY = ['/api/admin/users'] as const;

export interface NewBackOfficeUser {
  username: string;
  password: string;
  role: BackOfficeRole;
}

// A 401 on an admin screen means the session ended: an error to show, not an empty answer.
export const backOfficeUsersQueryOptions = () =>
  queryOptions({
    queryKey: USERS_KEY,
    queryFn: () => getJson<BackOfficeUserView[]>(USERS_KEY[0], { on401: 'throw' }),
  });

export const useBackOfficeUsers = () => useQuery(backOfficeUsersQueryOptions());

/** POST /api/admin/users; a refusal (taken username, short password) is shown by the form. */
export function useAddBackOfficeUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (user: NewBackOfficeUser) =>
      (await (await apiRequest('POST', USERS_KEY[0], user)).json()) as BackOfficeUserView,
    onSuccess: async (user) => {
      toast({
        title: 'User added',
        description: `${user.username} can sign in as ${user.role === 'admin' ? 'an admin' : 'an auditor'}.`,
      });
      await queryClient.invalidateQueries({ queryKey: USERS_KEY });
    },
  });
}

export function useDeleteBackOfficeUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest('DELETE', `${USERS_KEY[0]}/${encodeURIComponent(id)}`),
    onSuccess: async () => {
      toast({ title: 'User deleted' });
      await queryClient.invalidateQueries({ queryKey: USERS_KEY });
    },
    onError: (error) => {
      toast({ title: 'Error', description: error.message, variant: 'destructive' });
    },
  });
}
