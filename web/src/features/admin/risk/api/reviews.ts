import type { ReviewDecisionView, ReviewView } from '@licensestore/contract/risk';
import type { ReviewStatus } from '@licensestore/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { answerOf, apiRequest, errorSentence, getJson } from '@/lib/api';
import { toast } from '@/lib/toast';

/** The review queue; its query keys start with this path, which the orders read model refreshes. */
export const REVIEWS_PATH = '/api/admin/reviews';

export const useReviews = (status: ReviewStatus) =>
  useQuery({
    queryKey: [REVIEWS_PATH, status],
    queryFn: () => getJson<ReviewView[]>(`${REVIEWS_PATH}?status=${status}`, { on401: 'throw' }),
  });

/**
 * Approve, or reject with a reason. A decision another reviewer made first is answered 409 with the sentence that
 * says which; it is shown as it is, and the queue reloads to show the order as decided.
 */
export function useReviewDecision() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ orderId, reason }: { orderId: string; reason?: string }) => {
      const path = `${REVIEWS_PATH}/${encodeURIComponent(orderId)}/${reason === undefined ? 'approve' : 'reject'}`;
      return answerOf<ReviewDecisionView>(
        await apiRequest('POST', path, reason === undefined ? undefined : { reason }),
      );
    },
    onSuccess: (decision) => {
      toast({
        title: decision.reviewStatus === 'approved' ? 'Order approved' : 'Order rejected',
        description:
          decision.reviewStatus === 'approved'
            ? 'Its license keys are emailed to the buyer.'
            : 'Its payment is refunded in full and its keys go back to stock.',
      });
    },
    onError: (error) => {
      toast({ title: 'Not decided', description: errorSentence(error), variant: 'destructive' });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: [REVIEWS_PATH] }),
  });
}
