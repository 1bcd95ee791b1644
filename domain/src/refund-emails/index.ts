// The refund emails sent to customers, one stream per order (`refundemail-<orderId>`): the record that keeps a
// replayed refund from emailing the customer twice.
import { z } from 'zod';
import type { Decider } from '../commands/index.js';
import { parseEventData } from '../events/event-data.js';

export const REFUND_EMAILS_CATEGORY = 'refundemail';
export const refundEmailStream = (orderId: string) => `${REFUND_EMAILS_CATEGORY}-${orderId}`;

export const refundEmailEventSchemas = {
  /** The refund email caused by event `trigger` (an OrderRefundCompleted) was handed to the mailer. */
  RefundEmailSent: z.object({
    orderId: z.uuid(),
    trigger: z.uuid(),
    recipient: z.string().min(3),
    messageId: z.string().min(1),
    sentAt: z.iso.datetime(),
  }),
};

export type RefundEmailEvent = {
  [K in keyof typeof refundEmailEventSchemas]: {
    type: K;
    data: z.infer<(typeof refundEmailEventSchemas)[K]>;
  };
}[keyof typeof refundEmailEventSchemas];

export interface RecordRefundEmailSent {
  type: 'RecordRefundEmailSent';
  orderId: string;
  trigger: string;
  recipient: string;
  messageId: string;
  now: string;
}

/** The triggers whose refund email is recorded as sent. */
export interface RefundEmailsState {
  sent: readonly string[];
}

export function parseRefundEmailEvent(type: string, data: unknown): RefundEmailEvent | null {
  if (!(type in refundEmailEventSchemas)) return null;
  const schema = refundEmailEventSchemas[type as RefundEmailEvent['type']];
  return { type, data: parseEventData(schema, data) } as RefundEmailEvent;
}

/** A trigger already recorded records nothing: a retried job's second record is a no-op. */
export const refundEmailDecider: Decider<RecordRefundEmailSent, RefundEmailsState, RefundEmailEvent> = {
  initialState: { sent: [] },
  decide: (cmd, state) =>
    state.sent.includes(cmd.trigger)
      ? []
      : [
          {
            type: 'RefundEmailSent',
            data: {
              orderId: cmd.orderId,
              trigger: cmd.trigger,
              recipient: cmd.recipient,
              messageId: cmd.messageId,
              sentAt: cmd.now,
            },
          },
        ],
  evolve: (state, event) => ({ sent: [...state.sent, event.data.trigger] }),
  parse: parseRefundEmailEvent,
};
