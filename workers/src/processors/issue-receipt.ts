import { orderDecider, orderStream, type PlacedOrder } from '@licensestore/domain';
import { loadStream } from '@licensestore/domain/commands';
import { receiptsStream, receiptYear, takeReceiptNumber } from '@licensestore/domain/receipts';
import { z } from 'zod';
import { type Cause, causeSchema, workersMetadata } from '../jobs/causation.js';
import { decideOnStream, retryOnConflict } from '../jobs/conflicts.js';
import { defineProcessor } from '../jobs/processor.js';
import { type JobRequest, jobFor } from '../jobs/queues.js';
import type { ProcessorContext } from './context.js';

const QUEUE = 'issue-receipt';
const schema = z.object({ orderId: z.uuid(), cause: causeSchema });
type IssueReceiptJob = z.infer<typeof schema>;

/** The receipt of an order whose money was taken (`cause`: a COMPLETED capture, or a PENDING one completing). */
export const issueReceiptJob = (orderId: string, cause: Cause): JobRequest =>
  jobFor(QUEUE, { orderId, cause } satisfies IssueReceiptJob);

/**
 * Runs `take` after the previous one for the same key has settled: this process's jobs take a year's numbers one at a
 * time, so they never conflict with each other on the year's stream, only with other processes.
 */
function oneAtATime() {
  const last = new Map<string, Promise<unknown>>();
  return <T>(key: string, take: () => Promise<T>): Promise<T> => {
    const turn = (last.get(key) ?? Promise.resolve()).catch(() => {}).then(take);
    last.set(key, turn);
    void turn
      .finally(() => {
        if (last.get(key) === turn) last.delete(key);
      })
      .catch(() => {});
    return turn;
  };
}

/**
 * Gives a paid order the next receipt number of the year it was paid in, in three appends, each safe to repeat:
 * 1. `OrderReceiptRequested` on the order, naming the year stream's last revision (its last event, read alone);
 * 2. `ReceiptNumberAssigned` on `receipts-<year>`, unless the events since that revision hold the order's number
 *    already, appended with the expected revision of the last one (a racing job conflicts and reads again);
 * 3. `OrderReceiptIssued` on the order, with that number.
 * A job killed anywhere in between, run again, finds what it did and goes on from there: one number per order, and
 * no number left unused.
 */
export const issueReceipt = ({ eventStore, logger }: ProcessorContext) => {
  const inTurn = oneAtATime();
  return defineProcessor({
    queue: QUEUE,
    schema,
    concurrency: 4,
    async process({ orderId, cause }) {
      const stream = orderStream(orderId);
      const metadata = workersMetadata(cause);
      const { state } = await loadStream(eventStore, stream, orderDecider);
      if (state.status === 'absent') return 'no such order';
      let order: PlacedOrder = state;
      if (order.paidAt === null) return `not paid (payment ${order.payment})`;
      if (order.receipt?.number) return 'already issued';
      const now = new Date().toISOString();
      if (!order.receipt) {
        const year = receiptYear(order.paidAt);
        const last = await eventStore.readLastEvent(receiptsStream(year));
        const receiptsAfterRevision = last === null ? null : Number(last.revision);
        const requested = await decideOnStream(
          eventStore,
          stream,
          orderDecider,
          { type: 'RequestReceipt', orderId, year, receiptsAfterRevision, now },
          metadata,
        );
        order = requested.state as PlacedOrder;
      }
      const request = order.receipt;
      if (!request) throw new Error(`order ${orderId} has no receipt request after asking for one`);
      if (request.number) return 'already issued';
      const assigned = await inTurn(String(request.year), () =>
        retryOnConflict(() =>
          takeReceiptNumber(
            eventStore,
            { orderId, year: request.year, receiptsAfterRevision: request.receiptsAfterRevision, now },
            metadata,
          ),
        ),
      );
      await decideOnStream(
        eventStore,
        stream,
        orderDecider,
        { type: 'IssueReceipt', orderId, receiptNumber: assigned.receiptNumber, now },
        metadata,
      );
      logger.info(
        { orderId, receiptNumber: assigned.receiptNumber, correlationId: cause.correlationId },
        'receipt issued',
      );
      return assigned.receiptNumber;
    },
  });
};
