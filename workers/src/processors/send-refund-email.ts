import { formatCents, orderDecider, orderStream, orderUnitSchema, toCents } from '@licensestore/domain';
import { maskedKey } from '@licensestore/domain/audit';
import { loadStream } from '@licensestore/domain/commands';
import { refundEmailDecider, refundEmailStream } from '@licensestore/domain/refund-emails';
import { z } from 'zod';
import type { Cause } from '../jobs/causation.js';
import { defineProcessor } from '../jobs/processor.js';
import { type JobRequest, jobFor } from '../jobs/queues.js';
import { renderRefundEmail } from '../mail/refund-email.js';
import type { ProcessorContext } from './context.js';
import { orderEmailJobFields, orderEmailOf, sendAndRecord } from './hand-over.js';

const QUEUE = 'send-refund-email';
const MESSAGE_KIND = 'refund';
const schema = z.object({
  ...orderEmailJobFields,
  /** The refund as its OrderRefundCompleted recorded it: the money and the units it took back. */
  amount: z.string().min(1),
  units: z.array(orderUnitSchema),
});
type RefundEmailJob = z.infer<typeof schema>;

/** The refund email caused by `cause`, an OrderRefundCompleted: its trigger. */
export const sendRefundEmailJob = (
  refund: Pick<RefundEmailJob, 'orderId' | 'amount' | 'units'>,
  cause: Cause,
): JobRequest => jobFor(QUEUE, { ...refund, cause } satisfies RefundEmailJob);

/**
 * Tells the customer that money of their order went back: how much, which keys no longer work (masked: a key that
 * never left the store goes back to stock for another buyer), what they paid net, and the updated receipt. Once per
 * refund: the RefundEmailSent record (its own stream, so a replayed refund finds it) makes a second job send nothing,
 * and a retry of an attempt that handed the message over only records it. A crash between the mail server's
 * acceptance and the note sends the same message again, with the same Message-ID, and says so in the log.
 */
export const sendRefundEmail = (context: ProcessorContext) =>
  defineProcessor({
    queue: QUEUE,
    schema,
    concurrency: 4,
    async process(data, job, token) {
      const { eventStore, keyVault, orderAccess, publicUrl, store } = context;
      const { orderId, cause } = data;
      const trigger = cause.eventId;
      const { state: sent } = await loadStream(eventStore, refundEmailStream(orderId), refundEmailDecider);
      if (sent.sent.includes(trigger)) return 'already sent';
      const { state: order } = await loadStream(eventStore, orderStream(orderId), orderDecider);
      if (order.status === 'absent') return 'no such order';
      const { messageId, record, recorded } = await orderEmailOf(context, data, order.customer.email, {
        kind: MESSAGE_KIND,
        type: 'RecordRefundEmailSent',
      });
      if (recorded) return 'recorded';

      const units = data.units.map((unit) => {
        const productName =
          order.lines.find((line) => line.lineId === unit.lineId)?.productName ?? 'An item of this order';
        const sealed = order.keys[unit.lineId]?.find((key) => key.keyId === unit.keyId)?.key;
        return { productName, maskedKey: sealed === undefined ? null : maskedKey(keyVault.open(sealed)) };
      });
      const email = renderRefundEmail({
        orderId,
        customerName: order.customer.name,
        store,
        amount: data.amount,
        units,
        total: order.total,
        netPaid: formatCents(toCents(order.total) - order.refundedCents),
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
