import type { Job } from 'bullmq';
import { causeSchema } from './causation.js';

const idOf = (value: unknown) => (typeof value === 'string' ? value : undefined);

/**
 * The fields of a job's log lines: its queue and id, the event it comes from and that event's correlation (so an
 * order's request, events, jobs and e-mails share one id in the logs), and the order or product it is about. Never
 * its data as a whole: a record-order-keys job carries sealed keys, and a delivery is addressed to a customer.
 */
export function jobLogFields(queue: string, job: Job | undefined) {
  const data = (job?.data ?? {}) as Record<string, unknown>;
  const cause = causeSchema.safeParse(data.cause);
  return {
    queue,
    jobId: job?.id,
    name: job?.name,
    attempt: job?.attemptsMade,
    correlationId: cause.success ? cause.data.correlationId : undefined,
    eventId: cause.success ? cause.data.eventId : undefined,
    orderId: idOf(data.orderId),
    productId: idOf(data.productId),
  };
}
