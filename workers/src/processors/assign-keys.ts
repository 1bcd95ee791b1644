import {
  inventoryDecider,
  licenceKeysStream,
  liveUnits,
  orderDecider,
  orderStream,
} from '@licensestore/shared';
import { loadStream } from '@licensestore/shared/commands';
import { z } from 'zod';
import { type Cause, causeSchema, workersMetadata } from '../jobs/causation.js';
import { groupedDecisions } from '../jobs/conflicts.js';
import { defineProcessor } from '../jobs/processor.js';
import type { JobRequest } from '../jobs/queues.js';
import type { ProcessorContext } from './context.js';
import { releaseOrderKeys } from './release-keys.js';

const QUEUE = 'assign-keys';
const schema = z.object({ orderId: z.uuid(), cause: causeSchema });

/** A paid order asks each product's inventory for its keys. */
export const assignKeysJob = (orderId: string, cause: Cause): JobRequest => ({
  queue: QUEUE,
  name: QUEUE,
  data: { orderId, cause } satisfies z.infer<typeof schema>,
});

/**
 * Requests the keys of every line still owed some, on the product's inventory stream: as many as the line has units
 * still the customer's. The inventory decides which keys (or queues the line) under its expected revision, so no key
 * goes to two lines; it asks only for keys the line neither holds nor waits for, which makes a repeated job
 * harmless. The keys reach the order through the inventory's LicenceKeysAssigned event (record-order-keys), never
 * through this job. A reopened order first gives back the keys it gave up, so the inventory no longer counts them
 * as the line's when it asks again.
 */
export const assignKeys = (context: ProcessorContext) => {
  const { eventStore, lowStockThreshold } = context;
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
      if (order.payment !== 'completed' || order.status === 'cancelled' || order.status === 'refunded') {
        return `not assigning: payment ${order.payment}, status ${order.status}`;
      }
      await releaseOrderKeys(context, order, cause);
      const live = liveUnits(order);
      for (const line of order.lines) {
        const units = live.filter((unit) => unit.lineId === line.lineId);
        if (units.every((unit) => unit.keyId !== null)) continue;
        await requestKeys(
          licenceKeysStream(line.productId),
          {
            type: 'RequestLicenceKeys',
            productId: line.productId,
            orderId,
            lineId: line.lineId,
            quantity: units.length,
            lowStockThreshold,
            now: new Date().toISOString(),
          },
          workersMetadata(cause),
        );
      }
      return 'requested';
    },
  });
};
