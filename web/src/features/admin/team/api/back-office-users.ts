import type { BackOfficeUserView, NewBackOfficeUserRequest } from '@licensestore/contract/back-office';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { answerOf, apiRequest } from '@/lib/api';
import { usePagedQuery } from '@/lib/paged-query';
import { toast } from '@/lib/toast';

const USERS_KEY = ['/api/admin/users'] as const;
/** The Team screen's paged list; its query keys start with this path. */
const TEAM_PATH = '/api/admin/team';

/** One page of the team: the URL's role filter and cursor, as the server takes them. */
export const useTeamPage = (params: Readonly<Record<string, string>>) =>
  usePagedQuery<BackOfficeUserView>(TEAM_PATH, params);

/** POST /api/admin/users; a refusal (taken username, short password) is shown by the form. */
export function useAddBackOfficeUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (user: NewBackOfficeUserRequest) =>
      answerOf<BackOfficeUserView>(await apiRequest('POST', USERS_KEY[0], user)),
    onSuccess: async (user) => {
      toast({
        title: 'User added',
        description: `${user.username} can sign in as ${user.role === 'admin' ? 'an admin' : 'an auditor'}.`,
      });
      await queryClient.invalidateQueries({ queryKey: [TEAM_PATH] });
    },
  });
}

export function useDeleteBackOfficeUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest('DELETE', `${USERS_KEY[0]}/${encodeURIComponent(id)}`),
    onSuccess: async () => {
      toast({ title: 'User deleted' });
      await queryClient.invalidateQueries({ queryKey: [TEAM_PATH] });
    },
    onError: (error) => {
      toast({ title: 'Error', description: error.message, variant: 'destructive' });
    },
  });
}
