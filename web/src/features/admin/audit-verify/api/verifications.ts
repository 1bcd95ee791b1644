import type { VerificationView } from '@licensestore/domain/audit-verify';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { answerOf, apiRequest, getJson } from '@/lib/api';
import { toast } from '@/lib/toast';

const VERIFICATIONS_KEY = ['/api/audit/verifications'] as const;
/** How often a run in progress is asked for its progress. */
const POLL_MS = 1000;

export const isRunning = (run: Pick<VerificationView, 'status'> | undefined) =>
  run?.status === 'queued' || run?.status === 'running';

// A 401 on a back-office screen means the session ended: an error to show, not an empty answer.
export const verificationsQueryOptions = () =>
  queryOptions({
    queryKey: VERIFICATIONS_KEY,
    queryFn: () => getJson<VerificationView[]>(VERIFICATIONS_KEY[0], { on401: 'throw' }),
    refetchInterval: (query) => (query.state.data?.some(isRunning) ? POLL_MS : false),
  });

export const verificationQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...VERIFICATIONS_KEY, id],
    queryFn: () =>
      getJson<VerificationView>(`${VERIFICATIONS_KEY[0]}/${encodeURIComponent(id)}`, { on401: 'throw' }),
    refetchInterval: (query) => (isRunning(query.state.data) ? POLL_MS : false),
  });

export const useVerifications = () => useQuery(verificationsQueryOptions());
export const useVerification = (id: string | null) =>
  useQuery({ ...verificationQueryOptions(id ?? ''), enabled: id !== null });

/** POST: a new run, or the one already in progress (the server answers with it). */
export function useStartVerification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => answerOf<VerificationView>(await apiRequest('POST', VERIFICATIONS_KEY[0])),
    onSuccess: async (run) => {
      queryClient.setQueryData(verificationQueryOptions(run.id).queryKey, run);
      await queryClient.invalidateQueries({ queryKey: VERIFICATIONS_KEY, exact: true });
    },
    onError: (error) => {
      toast({ title: 'Error', description: error.message, variant: 'destructive' });
    },
  });
}
