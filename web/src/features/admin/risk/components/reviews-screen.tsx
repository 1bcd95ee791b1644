import type { ReviewStatus } from '@licensestore/domain';
import { useState } from 'react';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { useReadOnly } from '../../auth/api/admin-status';
import { useReviews } from '../api/reviews';
import { ReviewsTable } from './reviews-table';

const TABS: ReadonlyArray<{ status: ReviewStatus; label: string }> = [
  { status: 'held', label: 'Waiting' },
  { status: 'approved', label: 'Approved' },
  { status: 'rejected', label: 'Rejected' },
];

/**
 * Reviews: the orders the risk rules hold, longest waiting first, refreshed as the orders read model moves (another
 * reviewer's decision included); the decided ones under their own tabs.
 */
export function ReviewsScreen() {
  const [status, setStatus] = useState<ReviewStatus>('held');
  const reviews = useReviews(status);
  const readOnly = useReadOnly();
  return (
    <div className="grid gap-4">
      <div role="tablist" aria-label="Review status" className="flex gap-2">
        {TABS.map((tab) => (
          <button
            key={tab.status}
            type="button"
            role="tab"
            aria-selected={status === tab.status}
            onClick={() => setStatus(tab.status)}
            className={`rounded-md px-3 py-1.5 text-sm ${status === tab.status ? 'bg-primary text-primary-foreground' : 'bg-muted'}`}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {reviews.isPending ? (
        <Skeleton className="h-40 w-full" />
      ) : reviews.error ? (
        <LoadError
          title="The review queue could not be loaded"
          error={reviews.error}
          retrying={reviews.isFetching}
          onRetry={() => reviews.refetch()}
        />
      ) : (
        <ReviewsTable reviews={reviews.data} readOnly={readOnly || status !== 'held'} />
      )}
    </div>
  );
}
