import { orderDecider, orderStream, productDecider, productStream } from '@licensestore/shared';
import { loadStream } from '@licensestore/shared/commands';
import type { EventStore } from '@licensestore/shared/eventstore';
import type { Logger } from '@licensestore/shared/logging';
import type { Job } from 'bullmq';
import { z } from 'zod';
import { type Cause, causeSchema, workersMetadata } from '../jobs/causation.js';
import { decideOnStream } from '../jobs/conflicts.js';
import { STALLED_JOBS } from '../jobs/host.js';
import { defineProcessor, stillOurs } from '../jobs/processor.js';
import type { JobRequest } from '../jobs/queues.js';
import { renderDeliveryEmail } from '../mail/delivery-email.js';
import { downloadFor } from '../mail/downloads.js';
import type { ProcessorContext } from './context.js';

const QUEUE = 'send-delivery-email';
const MESSAGE_KIND = 'delivery';
const schema = z.object({
  orderId: z.uuid(),
  cause: causeSchema,
  /** Set by the attempt that handed the message to the mail server, so that a retry only records it. */
  handedOver: z.string().optional(),
});
type DeliveryEmailJob = z.infer<typeof schema>;

/** The delivery e-mail caused by `cause` (an OrderFulfilled or a DeliveryEmailResendRequested): its trigger. */
export const sendDeliveryEmailJob = (orderId: string, cause: Cause): JobRequest => ({
  queue: QUEUE,
  name: QUEUE,
  data: { orderId, cause } satisfies DeliveryEmailJob,
});

/** The product's category as it is now; null once the product is deleted (or never was in the catalogue). */
async function categoryOf(eventStore: EventStore, productId: string): Promise<string | null> {
  const { state } = await loadStream(eventStore, productStream(productId), productDecider);
  return state.status === 'active' ? state.fields.category : null;
}

/**
 * Notes in the job, in Redis, that the message is with the mail server, before the DeliveryEmailSent append: an
 * append that fails (Postgres restarting) is retried without sending again. A Redis that cannot take the note is no
 * reason to stop; the append then makes the retry a no-op instead.
 */
async function noteHandedOver(job: Job, data: DeliveryEmailJob, messageId: string, logger: Logger) {
  try {
    await job.updateData({ ...data, handedOver: messageId } satisfies DeliveryEmailJob);
  } catch (error) {
    logger.warn({ err: error, orderId: data.orderId, messageId }, 'could not note the hand-over');
  }
}

/**
 * Sends the order's keys once per trigger (never for a cancelled or refunded order): a trigger the order already
 * records as sent sends nothing, nor does a retry of an attempt that handed the message over. Only a crash between
 * the mail server's acceptance and the note makes the retry send again; the message then carries the same
 * Message-ID (and overwrites the same .eml file), so it is the same message, not a new one.
 */
export const sendDeliveryEmail = (context: ProcessorContext) =>
  defineProcessor({
    queue: QUEUE,
    schema,
    concurrency: 4,
    async process(data, job, token) {
      const { eventStore, keyVault, orderAccess, mailer, publicUrl, logger } = context;
      const { orderId, cause } = data;
      const trigger = cause.eventId;
      const { state: order } = await loadStream(eventStore, orderStream(orderId), orderDecider);
      if (order.status === 'absent') return 'no such order';
      if (order.emailsSent.includes(trigger)) return 'already sent';
      const messageId = mailer.messageIdFor(MESSAGE_KIND, trigger);
      const recipient = order.customer.email;
      const record = () =>
        decideOnStream(
          eventStore,
          orderStream(orderId),
          orderDecider,
          {
            type: 'RecordDeliveryEmailSent',
            orderId,
            trigger,
            recipient,
            messageId,
            now: new Date().toISOString(),
          },
          workersMetadata(cause),
        );
      if (data.handedOver === messageId) {
        await record();
        return 'recorded';
      }
      // Keys that reached an order after it was cancelled or refunded are not the customer's to use.
      if (order.status === 'cancelled' || order.status === 'refunded')
        return `not sending: order ${order.status}`;

      const lines = await Promise.all(
        order.lines.map(async (line) => ({
          productName: line.productName,
          quantity: line.quantity,
          keys: (order.keys[line.lineId] ?? []).map((key) => keyVault.open(key.key)),
          download: downloadFor(await categoryOf(eventStore, line.productId), line.productId, publicUrl),
        })),
      );
      const email = renderDeliveryEmail({
        orderId,
        customerName: order.customer.name,
        lines,
        publicUrl,
        accessToken: orderAccess.token('order-link', orderId),
        receiptToken: orderAccess.token('receipt', orderId),
      });
      await stillOurs(job, token, STALLED_JOBS.lockDuration);
      await mailer.send({
        to: { name: order.customer.name, address: recipient },
        messageId,
        ...email,
        context: { correlationId: cause.correlationId, orderId },
      });
      await noteHandedOver(job, data, messageId, logger);
      await record();
      return 'sent';
    },
  });
