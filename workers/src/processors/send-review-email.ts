import { orderDecider, orderStream, RISK_RULES_STREAM, riskDecider } from '@licensestore/domain';
import { loadStream } from '@licensestore/domain/commands';
import { z } from 'zod';
import type { Cause } from '../jobs/causation.js';
import { defineProcessor } from '../jobs/processor.js';
import { type JobRequest, jobFor } from '../jobs/queues.js';
import { renderReviewEmail } from '../mail/review-email.js';
import type { ProcessorContext } from './context.js';
import { orderEmailJobFields, orderEmailOf, sendAndRecord } from './hand-over.js';

const QUEUE = 'send-review-email';
const schema = z.object({
  ...orderEmailJobFields,
  kind: z.enum(['held', 'rejected']),
  /** Rejected: the reason the admin gave, as OrderRejected recorded it. */
  reason: z.string().nullable(),
});
type ReviewEmailJob = z.infer<typeof schema>;

/** The review e-mail caused by `cause` (an OrderHeldForReview or an OrderRejected): its trigger. */
export const sendReviewEmailJob = (
  review: Pick<ReviewEmailJob, 'orderId' | 'kind' | 'reason'>,
  cause: Cause,
): JobRequest => jobFor(QUEUE, { ...review, cause } satisfies ReviewEmailJob);

/**
 * Tells the buyer of a held order that it is being checked and when to expect the keys, or of a rejected one that
 * it was not approved and its money goes back. Once per trigger, recorded on the order (OrderReviewEmailSent); a
 * retry of an attempt that handed the message over only records it. A hold decided already when the job runs
 * (approved at once) sends nothing: the delivery e-mail is the buyer's news then.
 */
export const sendReviewEmail = (context: ProcessorContext) =>
  defineProcessor({
    queue: QUEUE,
    schema,
    concurrency: 4,
    async process(data, job, token) {
      const { eventStore, orderAccess, publicUrl, store } = context;
      const { orderId, kind, cause } = data;
      const trigger = cause.eventId;
      const { state: order } = await loadStream(eventStore, orderStream(orderId), orderDecider);
      if (order.status === 'absent') return 'no such order';
      if (order.reviewEmailsSent.includes(trigger)) return 'already sent';
      const { messageId, record, recorded } = await orderEmailOf(context, data, order.customer.email, {
        kind: `review-${kind}`,
        type: 'RecordReviewEmailSent',
      });
      if (recorded) return 'recorded';
      if (kind === 'held' && order.review !== 'held') return `not sending: review ${order.review}`;
      const { state: risk } = await loadStream(eventStore, RISK_RULES_STREAM, riskDecider);
      const email = renderReviewEmail({
        kind,
        orderId,
        customerName: order.customer.name,
        store,
        total: order.total,
        checkMinutes: risk.rules.overdueAfterMinutes,
        reason: data.reason,
        publicUrl,
        accessToken: orderAccess.token('order-link', orderId),
        receiptToken: orderAccess.token('receipt', orderId),
      });
      return sendAndRecord(
        { job, token, data },
        context,
        { orderId, customer: order.customer, cause, messageId, email },
        record,
      );
    },
  });
