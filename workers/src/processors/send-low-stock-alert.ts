import { inventoryDecider, licenseKeysStream, productDecider, productStream } from '@licensestore/domain';
import { loadStream } from '@licensestore/domain/commands';
import { z } from 'zod';
import { type Cause, causeSchema } from '../jobs/causation.js';
import { defineProcessor } from '../jobs/processor.js';
import { type JobRequest, jobFor } from '../jobs/queues.js';
import { renderLowStockEmail } from '../mail/low-stock-email.js';
import type { ProcessorContext } from './context.js';

const QUEUE = 'send-low-stock-alert';
const MESSAGE_KIND = 'low-stock';
const schema = z.object({
  productId: z.uuid(),
  available: z.number().int().nonnegative(),
  threshold: z.number().int().positive(),
  cause: causeSchema,
});
type LowStockAlert = z.infer<typeof schema>;

/** A LicenceKeyStockLow event, as an e-mail to the admin. */
export const sendLowStockAlertJob = (alert: Omit<LowStockAlert, 'cause'>, cause: Cause): JobRequest =>
  jobFor(QUEUE, { ...alert, cause } satisfies LowStockAlert);

/**
 * E-mails ADMIN_EMAIL, if set. Nothing records the alert as sent, so a replayed job (after Redis lost its data, say)
 * would send it again; it sends only while the alert is current (the inventory's latest, not re-armed by new keys),
 * so a replay does not bring back alerts about stock that has recovered since.
 */
export const sendLowStockAlert = ({ eventStore, mailer, adminEmail, publicUrl }: ProcessorContext) =>
  defineProcessor({
    queue: QUEUE,
    schema,
    async process({ productId, available, threshold, cause }) {
      if (!adminEmail) return 'no ADMIN_EMAIL';
      const inventory = await loadStream(eventStore, licenseKeysStream(productId), inventoryDecider);
      if (
        inventory.causes.get('LicenceKeyStockLow')?.eventId !== cause.eventId ||
        inventory.state.lowStockAlertedBelow === null
      ) {
        return 'stock recovered since';
      }
      const { state: product } = await loadStream(eventStore, productStream(productId), productDecider);
      const email = renderLowStockEmail({
        productName: product.status === 'active' ? product.fields.name : `product ${productId}`,
        available,
        threshold,
        licenseKeysUrl: `${publicUrl}/admin/license-keys`,
      });
      await mailer.send({
        to: adminEmail,
        messageId: mailer.messageIdFor(MESSAGE_KIND, cause.eventId),
        ...email,
        context: { correlationId: cause.correlationId, productId },
      });
      return 'sent';
    },
  });
