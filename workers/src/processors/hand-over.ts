import type { Logger } from '@licensestore/platform/logging';
import type { Mailer } from '@licensestore/platform/mail';
import type { Job } from 'bullmq';
import type { Cause } from '../jobs/causation.js';
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
