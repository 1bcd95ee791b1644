import { liveUnits, orderDecider, orderStream, productDecider, productStream } from '@licensestore/domain';
import { loadStream } from '@licensestore/domain/commands';
import type { EventStore } from '@licensestore/domain/events';
import { z } from 'zod';
import { type Cause, causeSchema, workersMetadata } from '../jobs/causation.js';
import { decideOnStream } from '../jobs/conflicts.js';
import { defineProcessor } from '../jobs/processor.js';
import { type JobRequest, jobFor } from '../jobs/queues.js';
import { renderDeliveryEmail } from '../mail/delivery-email.js';
import { downloadFor, type ProductDownload } from '../mail/downloads.js';
import type { ProcessorContext } from './context.js';
import { sendAndRecord } from './hand-over.js';

const QUEUE = 'send-delivery-email';
const MESSAGE_KIND = 'delivery';
const schema = z.object({
  orderId: z.uuid(),
  cause: causeSchema,
  /** Set by the attempt that handed the message to the mail server, so that a retry only records it. */
  handedOver: z.string().optional(),
});
type DeliveryEmailJob = z.infer<typeof schema>;

/** The delivery email caused by `cause` (an OrderFulfilled or a DeliveryEmailResendRequested): its trigger. */
export const sendDeliveryEmailJob = (orderId: string, cause: Cause): JobRequest =>
  jobFor(QUEUE, { orderId, cause } satisfies DeliveryEmailJob);

/** The product's download as it is now; null once the product is deleted (or never was in the catalogue). */
async function productDownloadOf(eventStore: EventStore, productId: string): Promise<ProductDownload | null> {
  const { state } = await loadStream(eventStore, productStream(productId), productDecider);
  if (state.status !== 'active') return null;
  return {
    downloadUrl: state.fields.downloadUrl ?? null,
    installationNotes: state.fields.installationNotes ?? null,
  };
}

/**
 * Sends the order's keys once per trigger (never for a cancelled or refunded order): a trigger the order already
 * records as sent sends nothing, nor does a retry of an attempt that handed the message over. Only a crash between
 * the mail server's acceptance and the note makes the retry send again, which SMTP cannot rule out (the server may
 * commit a message whose reply never arrives). The message then carries the same Message-ID (and overwrites the
 * same .eml file), so it is the same message, not a new one, and every retry that may repeat one says so.
 */
export const sendDeliveryEmail = (context: ProcessorContext) =>
  defineProcessor({
    queue: QUEUE,
    schema,
    concurrency: 4,
    async process(data, job, token) {
      const { eventStore, keyVault, orderAccess, mailer, publicUrl, store } = context;
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

      // Only the units still the customer's: a refunded unit's key is not theirs to use.
      const live = liveUnits(order);
      const lines = await Promise.all(
        order.lines.flatMap((line) => {
          const units = live.filter((unit) => unit.lineId === line.lineId);
          if (units.length === 0) return [];
          const sealed = new Map((order.keys[line.lineId] ?? []).map((key) => [key.keyId, key.key]));
          return [
            (async () => ({
              productName: line.productName,
              quantity: units.length,
              unitPrice: line.unitPrice,
              keys: units.flatMap((unit) => {
                const key = unit.keyId === null ? undefined : sealed.get(unit.keyId);
                return key === undefined ? [] : [keyVault.open(key)];
              }),
              download: downloadFor(
                await productDownloadOf(eventStore, line.productId),
                line.productId,
                publicUrl,
              ),
            }))(),
          ];
        }),
      );
      const email = renderDeliveryEmail({
        orderId,
        customerName: order.customer.name,
        lines,
        store,
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
