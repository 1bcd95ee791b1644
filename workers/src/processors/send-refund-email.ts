import { formatCents, orderDecider, orderStream, orderUnitSchema, toCents } from '@licensestore/domain';
import { maskedKey } from '@licensestore/domain/audit';
import { loadStream } from '@licensestore/domain/commands';
import { refundEmailDecider, refundEmailStream } from '@licensestore/domain/refund-emails';
import { z } from 'zod';
import { decideOnStream } from '../jobs/conflicts.js';
import { renderRefundEmail } from '../mail/refund-email.js';
import type { ProcessorContext } from './context.js';
import { defineOrderEmailProcessor, orderEmailQueue } from './hand-over.js';

const refundEmails = orderEmailQueue('send-refund-email', {
  /** The refund as its OrderRefundCompleted recorded it: the money and the units it took back. */
  amount: z.string().min(1),
  units: z.array(orderUnitSchema),
});

/** The refund email caused by `cause`, an OrderRefundCompleted: its trigger. */
export const sendRefundEmailJob = refundEmails.job;

/**
 * Tells the customer that money of their order went back: how much, which keys no longer work (masked: a key that
 * never left the store goes back to stock for another buyer), what they paid net, and the updated receipt. Once per
 * refund, recorded as RefundEmailSent on a stream of its own, where a replayed refund finds it.
 */
export const sendRefundEmail = (context: ProcessorContext) =>
  defineOrderEmailProcessor(context, {
    queue: refundEmails,
    kind: () => 'refund',
    recordSent: (eventStore, sent, metadata) =>
      decideOnStream(
        eventStore,
        refundEmailStream(sent.orderId),
        refundEmailDecider,
        { type: 'RecordRefundEmailSent', ...sent },
        metadata,
      ),
    async load({ orderId, cause }) {
      const { eventStore } = context;
      const { state: sent } = await loadStream(eventStore, refundEmailStream(orderId), refundEmailDecider);
      if (sent.sent.includes(cause.eventId)) return 'already sent';
      const { state: order } = await loadStream(eventStore, orderStream(orderId), orderDecider);
      if (order.status === 'absent') return 'no such order';
      return order;
    },
    async compose(data, order, heading) {
      const units = data.units.map((unit) => {
        const productName =
          order.lines.find((line) => line.lineId === unit.lineId)?.productName ?? 'An item of this order';
        const sealed = order.keys[unit.lineId]?.find((key) => key.keyId === unit.keyId)?.key;
        return {
          productName,
          maskedKey: sealed === undefined ? null : maskedKey(context.keyVault.open(sealed)),
        };
      });
      return renderRefundEmail({
        ...heading,
        amount: data.amount,
        units,
        total: order.total,
        netPaid: formatCents(toCents(order.total) - order.refundedCents),
      });
    },
  });
