import { orderDecider, orderStream, productDecider, productStream } from '@licensestore/shared';
import { loadStream } from '@licensestore/shared/commands';
import type { EventStore } from '@licensestore/shared/eventstore';
import { z } from 'zod';
import { type Cause, causeSchema, workersMetadata } from '../jobs/causation.js';
import { decideOnStream } from '../jobs/conflicts.js';
import { defineProcessor } from '../jobs/processor.js';
import type { JobRequest } from '../jobs/queues.js';
import { renderDeliveryEmail } from '../mail/delivery-email.js';
import { downloadFor } from '../mail/downloads.js';
import type { ProcessorContext } from './context.js';

const QUEUE = 'send-delivery-email';
const MESSAGE_KIND = 'delivery';
const schema = z.object({ orderId: z.uuid(), cause: causeSchema });

/** The delivery e-mail caused by `cause` (an OrderFulfilled or a DeliveryEmailResendRequested): its trigger. */
export const sendDeliveryEmailJob = (orderId: string, cause: Cause): JobRequest => ({
  queue: QUEUE,
  name: QUEUE,
  data: { orderId, cause } satisfies z.infer<typeof schema>,
});

/** The product's category as it is now; null once the product is deleted (or never was in the catalogue). */
async function categoryOf(eventStore: EventStore, productId: string): Promise<string | null> {
  const { state } = await loadStream(eventStore, productStream(productId), productDecider);
  return state.status === 'active' ? state.fields.category : null;
}

/**
 * Sends the order's keys once per trigger (never for a cancelled or refunded order): a trigger the order already
 * records as sent sends nothing. Between the
 * hand-over to the mail server and the DeliveryEmailSent append, a crash makes the retry send again; the message
 * then carries the same Message-ID (and overwrites the same .eml file), so it is the same message, not a new one.
 */
export const sendDeliveryEmail = ({ eventStore, keyVault, mailer, publicUrl }: ProcessorContext) =>
  defineProcessor({
    queue: QUEUE,
    schema,
    concurrency: 4,
    async process({ orderId, cause }) {
      const trigger = cause.eventId;
      const { state: order } = await loadStream(eventStore, orderStream(orderId), orderDecider);
      if (order.status === 'absent') return 'no such order';
      if (order.emailsSent.includes(trigger)) return 'already sent';
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
      const email = renderDeliveryEmail({ orderId, customerName: order.customer.name, lines, publicUrl });
      const messageId = mailer.messageIdFor(MESSAGE_KIND, trigger);
      const recipient = order.customer.email;
      await mailer.send({
        to: { name: order.customer.name, address: recipient },
        messageId,
        ...email,
        context: { correlationId: cause.correlationId, orderId },
      });

      await decideOnStream(
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
      return 'sent';
    },
  });
