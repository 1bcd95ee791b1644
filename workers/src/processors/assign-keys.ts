import { inventoryDecider, orderDecider, orderStream } from '@licensestore/domain';
import { loadStream } from '@licensestore/domain/commands';
import { z } from 'zod';
import { type Cause, causeSchema } from '../jobs/causation.js';
import { groupedDecisions } from '../jobs/conflicts.js';
import { defineProcessor } from '../jobs/processor.js';
import { type JobRequest, jobFor } from '../jobs/queues.js';
import type { ProcessorContext } from './context.js';
import { owedKeys, requestOrderKeys } from './order-keys.js';

const QUEUE = 'assign-keys';
const schema = z.object({ orderId: z.uuid(), cause: causeSchema });

/** A paid order asks each product's inventory for its keys. */
export const assignKeysJob = (orderId: string, cause: Cause): JobRequest =>
  jobFor(QUEUE, { orderId, cause } satisfies z.infer<typeof schema>);

/**
 * Asks for the keys of an order owed some (requestOrderKeys): a repeated job is harmless, as the inventory is asked
 * only for keys a line neither holds nor waits for.
 */
export const assignKeys = (context: ProcessorContext) => {
  const { eventStore } = context;
  // A popular product's orders arrive together: they are decided in groups (one load, one append per group).
  const requestKeys = groupedDecisions(eventStore, inventoryDecider);
  return defineProcessor({
    queue: QUEUE,
    schema,
    // Up to this many orders of one product form one group; orders of other products are decided side by side.
    concurrency: 16,
    async process({ orderId, cause }) {
      const { state: order } = await loadStream(eventStore, orderStream(orderId), orderDecider);
      if (order.status === 'absent') return 'no such order';
      if (!owedKeys(order)) return `not assigning: payment ${order.payment}, status ${order.status}`;
      await requestOrderKeys(context, order, cause, requestKeys);
      return 'requested';
    },
  });
};
