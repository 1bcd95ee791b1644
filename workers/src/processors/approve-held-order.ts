import { IllegalStateError, orderDecider, orderStream } from '@licensestore/domain';
import { z } from 'zod';
import { type Cause, causeSchema, workersMetadata } from '../jobs/causation.js';
import { decideOnStream } from '../jobs/conflicts.js';
import { defineProcessor } from '../jobs/processor.js';
import { type JobRequest, jobFor } from '../jobs/queues.js';
import type { ProcessorContext } from './context.js';

const QUEUE = 'approve-held-order';
const schema = z.object({ orderId: z.uuid(), cause: causeSchema });

/** The approval of a held order nobody decided on by `at` (its OrderHeldForReview's autoApproveAt), due then. */
export const approveHeldOrderJob = (orderId: string, at: string, cause: Cause): JobRequest => ({
  ...jobFor(QUEUE, { orderId, cause } satisfies z.infer<typeof schema>),
  delayMs: Math.max(0, Date.parse(at) - Date.now()),
});

/**
 * Approves a held order when its wait is over, as the rules said when it was held; an order an admin decided on
 * first (or that was cancelled meanwhile) stays as it is.
 */
export const approveHeldOrder = ({ eventStore }: ProcessorContext) =>
  defineProcessor({
    queue: QUEUE,
    schema,
    async process({ orderId, cause }) {
      try {
        const { events } = await decideOnStream(
          eventStore,
          orderStream(orderId),
          orderDecider,
          { type: 'ApproveOrder', orderId, automatic: true, now: new Date().toISOString() },
          workersMetadata(cause),
        );
        return events.length > 0 ? 'approved' : 'unchanged';
      } catch (error) {
        if (error instanceof IllegalStateError) return `not approved: ${error.message}`;
        throw error;
      }
    },
  });
