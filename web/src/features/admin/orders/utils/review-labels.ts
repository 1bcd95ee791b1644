import type { ReviewStatus } from '@licensestore/domain';

/** Where a hold by the risk rules stands, as the back office's screens say it. */
export const REVIEW_LABELS: Record<ReviewStatus, string> = {
  held: 'Held for review: keys set aside, not delivered',
  approved: 'Approved after review',
  rejected: 'Rejected after review',
};
