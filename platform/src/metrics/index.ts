import { AUDIT_VERIFY_QUEUE } from '@licensestore/domain/audit-verify';

/**
 * Every BullMQ queue the store consumes (the workers role's, and the back office's verifications, which the
 * projections role runs): the API reports their depth on /metrics from Redis, for the whole deployment, without
 * running a worker. The workers log the queues they consume at start ('workers started');
 * services/api/test/metrics.int.spec.ts checks that list and the verification queue against this one.
 */
export const JOB_QUEUES = [
  'place-captured-order',
  'assign-keys',
  'record-order-keys',
  'send-delivery-email',
  'send-refund-email',
  'send-review-email',
  'approve-held-order',
  'send-low-stock-alert',
  'release-keys',
  'issue-receipt',
  AUDIT_VERIFY_QUEUE,
] as const;
