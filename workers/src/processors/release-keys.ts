import { orderDecider, orderStream } from '@licensestore/domain';
import { loadStream } from '@licensestore/domain/commands';
import { z } from 'zod';
import { type Cause, causeSchema } from '../jobs/causation.js';
import { defineProcessor } from '../jobs/processor.js';
import { type JobRequest, jobFor } from '../jobs/queues.js';
import type { ProcessorContext } from './context.js';
import { releaseOrderKeys } from './order-keys.js';

const QUEUE = 'release-keys';
const schema = z.object({ orderId: z.uuid(), cause: causeSchema });

/** An order gave units up (a refund completed, the order cancelled, its payment denied): its keys go back. */
export const releaseKeysJob = (orderId: string, cause: Cause): JobRequest =>
  jobFor(QUEUE, { orderId, cause } satisfies z.infer<typeof schema>);

/** Reads the order as it is now, so a job run late or twice gives back exactly what is still to give. */
export const releaseKeys = (context: ProcessorContext) =>
  defineProcessor({
    queue: QUEUE,
    schema,
    concurrency: 4,
    async process({ orderId, cause }) {
      const { state: order } = await loadStream(context.eventStore, orderStream(orderId), orderDecider);
      if (order.status === 'absent') return 'no such order';
      const lines = await releaseOrderKeys(context, order, cause);
      return lines === 0 ? 'nothing to give back' : `gave back keys of ${lines} line(s)`;
    },
  });
