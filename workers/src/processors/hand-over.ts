import { orderDecider, orderStream } from '@licensestore/domain';
import type { EventStore } from '@licensestore/domain/events';
import { refundEmailDecider, refundEmailStream } from '@licensestore/domain/refund-emails';
import type { Logger } from '@licensestore/platform/logging';
import type { Mailer } from '@licensestore/platform/mail';
import type { Job } from 'bullmq';
import { z } from 'zod';
import { type Cause, causeSchema, workersMetadata } from '../jobs/causation.js';
import { decideOnStream } from '../jobs/conflicts.js';
import { STALLED_JOBS } from '../jobs/host.js';
import { stillOurs } from '../jobs/processor.js';
import type { RenderedEmail } from '../mail/delivery-email.js';

/**
 * Notes in the job, in Redis, that the message is with the mail server, before its "sent" event is appended: an
 * append that fails (Postgres restarting) is retried without sending again. A Redis that cannot take the note is no
 * reason to stop; the append then makes the retry a no-op instead.
 */
async function noteHandedOver<Data extends { orderId: string; handedOver?: string | undefined }>(
  job: Job,
  data: Data,
  messageId: string,
  logger: Logger,
) {
  try {
    await job.updateData({ ...data, handedOver: messageId });
  } catch (error) {
    logger.warn({ err: error, orderId: data.orderId, messageId }, 'could not note the hand-over');
  }
}

/** Said before a send that an earlier attempt may have made already, naming the Message-ID both copies carry. */
export const MAY_REPEAT_MESSAGE =
  'sending after an interrupted attempt; the mail server may already hold this message';

/** A customer email about one order, to its customer, caused by the event `cause` names. */
export interface OrderEmail {
  orderId: string;
  customer: { name: string; email: string };
  cause: Cause;
  messageId: string;
  email: RenderedEmail;
}

/**
 * Hands a customer email to the mail server, then records it as sent (`record`, an idempotent append): only while
 * the job is still this worker's, saying in the log when an earlier attempt may have sent the same message already.
 */
export async function sendAndRecord<Data extends { orderId: string; handedOver?: string | undefined }>(
  { job, token, data }: { job: Job; token: string; data: Data },
  { mailer, logger }: { mailer: Mailer; logger: Logger },
  { orderId, customer, cause, messageId, email }: OrderEmail,
  record: () => Promise<unknown>,
) {
  await stillOurs(job, token, STALLED_JOBS.lockDuration);
  if (job.attemptsStarted > 1) {
    logger.warn({ orderId, messageId, attempt: job.attemptsStarted }, MAY_REPEAT_MESSAGE);
  }
  await mailer.send({
    to: { name: customer.name, address: customer.email },
    messageId,
    ...email,
    context: { correlationId: cause.correlationId, orderId },
  });
  await noteHandedOver(job, data, messageId, logger);
  await record();
  return 'sent';
}

/** The fields of every customer e-mail job about one order. */
export const orderEmailJobFields = {
  orderId: z.uuid(),
  cause: causeSchema,
  /** Set by the attempt that handed the message to the mail server, so that a retry only records it. */
  handedOver: z.string().optional(),
};

/**
 * A customer e-mail about an order: its Message-ID, derived from its trigger, and its record (idempotent: the command
 * records a trigger once). Refund e-mails are recorded on a stream of their own, where a replayed refund finds them;
 * the others on the order. `recorded`: an earlier attempt handed it over, and this one only had to record it.
 */
export async function orderEmailOf(
  { eventStore, mailer }: { eventStore: EventStore; mailer: Mailer },
  { orderId, cause, handedOver }: { orderId: string; cause: Cause; handedOver?: string | undefined },
  recipient: string,
  {
    kind,
    type,
  }: { kind: string; type: 'RecordDeliveryEmailSent' | 'RecordReviewEmailSent' | 'RecordRefundEmailSent' },
) {
  const messageId = mailer.messageIdFor(kind, cause.eventId);
  const sent = { orderId, trigger: cause.eventId, recipient, messageId, now: new Date().toISOString() };
  const metadata = workersMetadata(cause);
  const record = () =>
    type === 'RecordRefundEmailSent'
      ? decideOnStream(
          eventStore,
          refundEmailStream(orderId),
          refundEmailDecider,
          { type, ...sent },
          metadata,
        )
      : decideOnStream(eventStore, orderStream(orderId), orderDecider, { type, ...sent }, metadata);
  if (handedOver === messageId) {
    await record();
    return { messageId, record, recorded: true };
  }
  return { messageId, record, recorded: false };
}
