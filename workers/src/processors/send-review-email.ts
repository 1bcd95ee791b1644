import { orderDecider, orderStream, RISK_RULES_STREAM, riskDecider } from '@licensestore/domain';
import { loadStream } from '@licensestore/domain/commands';
import { z } from 'zod';
import { renderReviewEmail } from '../mail/review-email.js';
import type { ProcessorContext } from './context.js';
import { defineOrderEmailProcessor, orderEmailQueue, recordOnOrder } from './hand-over.js';

const reviewEmails = orderEmailQueue('send-review-email', {
  kind: z.enum(['held', 'rejected']),
  /** Rejected: the reason the admin gave, as OrderRejected recorded it. */
  reason: z.string().nullable(),
});

/** The review e-mail caused by `cause` (an OrderHeldForReview or an OrderRejected): its trigger. */
export const sendReviewEmailJob = reviewEmails.job;

/**
 * Tells the buyer of a held order that it is being checked and when to expect the keys, or of a rejected one that
 * it was not approved and its money goes back. Once per trigger, recorded on the order (OrderReviewEmailSent). A
 * hold decided already when the job runs (approved at once) sends nothing: the delivery e-mail is the buyer's news.
 */
export const sendReviewEmail = (context: ProcessorContext) =>
  defineOrderEmailProcessor(context, {
    queue: reviewEmails,
    kind: (data) => `review-${data.kind}`,
    recordSent: recordOnOrder('RecordReviewEmailSent'),
    async load({ orderId, cause }) {
      const { state: order } = await loadStream(context.eventStore, orderStream(orderId), orderDecider);
      if (order.status === 'absent') return 'no such order';
      if (order.reviewEmailsSent.includes(cause.eventId)) return 'already sent';
      return order;
    },
    async compose({ kind, reason }, order, heading) {
      if (kind === 'held' && order.review !== 'held') return `not sending: review ${order.review}`;
      const { state: risk } = await loadStream(context.eventStore, RISK_RULES_STREAM, riskDecider);
      return renderReviewEmail({
        ...heading,
        kind,
        total: order.total,
        checkMinutes: risk.rules.overdueAfterMinutes,
        reason,
      });
    },
  });
