import { type Customer, orderDecider, orderStream } from '@licensestore/domain';
import type { EventStore, NewEventMetadata } from '@licensestore/domain/events';
import type { Logger } from '@licensestore/platform/logging';
import type { Job } from 'bullmq';
import { z } from 'zod';
import { type Cause, causeSchema, workersMetadata } from '../jobs/causation.js';
import { decideOnStream } from '../jobs/conflicts.js';
import { STALLED_JOBS } from '../jobs/host.js';
import { defineProcessor, stillOurs } from '../jobs/processor.js';
import { type JobRequest, jobFor } from '../jobs/queues.js';
import type { RenderedEmail } from '../mail/delivery-email.js';
import type { OrderEmailHeading } from '../mail/links.js';
import type { ProcessorContext } from './context.js';

/** Said before a send that an earlier attempt may have made already, naming the Message-ID both copies carry. */
export const MAY_REPEAT_MESSAGE =
  'sending after an interrupted attempt; the mail server may already hold this message';

/** The fields of every customer e-mail job about one order. */
const orderEmailJobFields = {
  orderId: z.uuid(),
  cause: causeSchema,
  /** Set by the attempt that handed the message to the mail server, so that a retry only records it. */
  handedOver: z.string().optional(),
};
type OrderEmailJob = z.infer<z.ZodObject<typeof orderEmailJobFields>>;

/** A queue of one kind of order e-mail: its jobs' data, validated as it is taken. */
interface OrderEmailQueue<Data extends OrderEmailJob> {
  name: string;
  schema: z.ZodType<Data>;
}

/**
 * The queue of one kind of order e-mail, whose jobs carry the order, the event that calls for the message (its
 * trigger), the hand-over note and the kind's own `fields`; `job` is how a reaction asks for one.
 */
export function orderEmailQueue<Fields extends z.ZodRawShape>(name: string, fields: Fields) {
  const schema = z.object({ ...orderEmailJobFields, ...fields });
  return {
    name,
    schema,
    job: (data: Omit<z.infer<typeof schema>, 'cause' | 'handedOver'>, cause: Cause): JobRequest =>
      jobFor(name, { ...data, cause }),
  };
}

/** A message handed to the mail server, as its record names it. */
export interface EmailSent {
  orderId: string;
  /** The id of the event that caused it: the record takes one per trigger. */
  trigger: string;
  recipient: string;
  messageId: string;
  now: string;
}

/** Why a job sends nothing, which is its result. */
type Nothing = string;

interface OrderEmailDefinition<Data extends OrderEmailJob, Loaded extends { customer: Customer }> {
  queue: OrderEmailQueue<Data>;
  /** With the trigger, the message's Message-ID: every attempt for one trigger sends the same message. */
  kind: (data: Data) => string;
  /** Records the message as sent: an append the command makes once per trigger, so a repeat is a no-op. */
  recordSent: (eventStore: EventStore, sent: EmailSent, metadata: NewEventMetadata) => Promise<unknown>;
  /** The order the message is about, or why nothing is to be sent (no such order, sent already). */
  load: (data: Data) => Promise<Loaded | Nothing>;
  /** The message, or why it is not to be sent after all. */
  compose: (data: Data, loaded: Loaded, heading: OrderEmailHeading) => Promise<RenderedEmail | Nothing>;
}

/**
 * A customer e-mail about one order, once per trigger. The load says when the trigger's message was recorded as
 * sent already. A retry of an attempt that handed the message to the mail server only records it. Otherwise the
 * message is handed over (only while the job is still this worker's), noted in the job, and recorded. Only a crash
 * between the mail server's acceptance and the note makes a retry send again, which SMTP cannot rule out (the server
 * may commit a message whose reply never arrives): the message then carries the same Message-ID, so it is the same
 * message, not a new one, and every attempt that may repeat one says so in the log.
 */
export function defineOrderEmailProcessor<Data extends OrderEmailJob, Loaded extends { customer: Customer }>(
  context: ProcessorContext,
  definition: OrderEmailDefinition<Data, Loaded>,
) {
  const { eventStore, mailer, logger, orderAccess, publicUrl, store } = context;
  return defineProcessor({
    queue: definition.queue.name,
    schema: definition.queue.schema,
    concurrency: 4,
    async process(data, job, token) {
      const { orderId } = data;
      const loaded = await definition.load(data);
      if (typeof loaded === 'string') return loaded;
      const { customer } = loaded;
      const messageId = mailer.messageIdFor(definition.kind(data), data.cause.eventId);
      const sent: EmailSent = {
        orderId,
        trigger: data.cause.eventId,
        recipient: customer.email,
        messageId,
        now: new Date().toISOString(),
      };
      const record = () => definition.recordSent(eventStore, sent, workersMetadata(data.cause));
      if (data.handedOver === messageId) {
        await record();
        return 'recorded';
      }
      const email = await definition.compose(data, loaded, {
        orderId,
        customerName: customer.name,
        store,
        publicUrl,
        accessToken: orderAccess.token('order-link', orderId),
        receiptToken: orderAccess.token('receipt', orderId),
      });
      if (typeof email === 'string') return email;

      await stillOurs(job, token, STALLED_JOBS.lockDuration);
      if (job.attemptsStarted > 1) {
        logger.warn({ orderId, messageId, attempt: job.attemptsStarted }, MAY_REPEAT_MESSAGE);
      }
      await mailer.send({
        to: { name: customer.name, address: customer.email },
        messageId,
        ...email,
        context: { correlationId: data.cause.correlationId, orderId },
      });
      await noteHandedOver(job, data, messageId, logger);
      await record();
      return 'sent';
    },
  });
}

/** Records an order e-mail on its order's stream, with the order's command of that name. */
export const recordOnOrder =
  (type: 'RecordDeliveryEmailSent' | 'RecordReviewEmailSent') =>
  (eventStore: EventStore, sent: EmailSent, metadata: NewEventMetadata) =>
    decideOnStream(eventStore, orderStream(sent.orderId), orderDecider, { type, ...sent }, metadata);

/**
 * Notes in the job, in Redis, that the message is with the mail server, before its "sent" event is appended: an
 * append that fails (Postgres restarting) is retried without sending again. A Redis that cannot take the note is no
 * reason to stop; the append then makes the retry a no-op instead.
 */
async function noteHandedOver(job: Job, data: OrderEmailJob, messageId: string, logger: Logger) {
  try {
    await job.updateData({ ...data, handedOver: messageId });
  } catch (error) {
    logger.warn({ err: error, orderId: data.orderId, messageId }, 'could not note the hand-over');
  }
}
