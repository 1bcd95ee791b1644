import { assignedKeySchema, orderDecider, orderStream } from '@licensestore/domain';
import { z } from 'zod';
import { type Cause, causeSchema, workersMetadata } from '../jobs/causation.js';
import { decideOnStream } from '../jobs/conflicts.js';
import { defineProcessor } from '../jobs/processor.js';
import { type JobRequest, jobFor } from '../jobs/queues.js';
import type { ProcessorContext } from './context.js';
import { releaseOrderKeys } from './order-keys.js';

const QUEUE = 'record-order-keys';
const schema = z.object({
  orderId: z.uuid(),
  lineId: z.string().min(1),
  keys: z.array(assignedKeySchema).min(1),
  cause: causeSchema,
});
type RecordOrderKeys = z.infer<typeof schema>;

/** The keys an inventory's LicenceKeysAssigned event gave an order line (sealed, as in the event). */
export const recordOrderKeysJob = (assignment: Omit<RecordOrderKeys, 'cause'>, cause: Cause): JobRequest =>
  jobFor(QUEUE, { ...assignment, cause } satisfies RecordOrderKeys);

/**
 * Writes on the order exactly the keys the inventory gave it: they come from the inventory's event, so a worker that
 * died after the inventory append leaves nothing to decide again, and the order decider ignores keys it already holds.
 * The last key makes the order fulfilled. Keys that reach an order after it gave their units up (cancelled, refunded:
 * the inventory's assignment crossed the release) go straight back.
 */
export const recordOrderKeys = (context: ProcessorContext) =>
  defineProcessor({
    queue: QUEUE,
    schema,
    concurrency: 4,
    async process({ orderId, lineId, keys, cause }) {
      const { events, state } = await decideOnStream(
        context.eventStore,
        orderStream(orderId),
        orderDecider,
        { type: 'RecordLicenseKeys', orderId, lineId, keys, now: new Date().toISOString() },
        workersMetadata(cause),
      );
      if (state.status !== 'absent') await releaseOrderKeys(context, state, cause);
      return events.map((event) => event.type);
    },
  });
