import {
  inventoryDecider,
  keyReleases,
  licenceKeysStream,
  orderDecider,
  orderStream,
  type PlacedOrder,
  withKeysShownInCustody,
} from '@licensestore/shared';
import { loadStream } from '@licensestore/shared/commands';
import { z } from 'zod';
import { type Cause, causeSchema, workersMetadata } from '../jobs/causation.js';
import { decideOnStream } from '../jobs/conflicts.js';
import { defineProcessor } from '../jobs/processor.js';
import type { JobRequest } from '../jobs/queues.js';
import type { ProcessorContext } from './context.js';

const QUEUE = 'release-keys';
const schema = z.object({ orderId: z.uuid(), cause: causeSchema });

/** An order gave units up (a refund completed, the order cancelled, its payment denied): its keys go back. */
export const releaseKeysJob = (orderId: string, cause: Cause): JobRequest => ({
  queue: QUEUE,
  name: QUEUE,
  data: { orderId, cause } satisfies z.infer<typeof schema>,
});

/**
 * Gives each product's inventory back what the order no longer holds (keyReleases): every step is decided on the
 * inventory's own stream with its expected revision and changes nothing when done already, so a repeated or
 * crossing job is harmless. Returns how many lines gave something back.
 */
export async function releaseOrderKeys(
  { eventStore, lowStockThreshold }: Pick<ProcessorContext, 'eventStore' | 'lowStockThreshold'>,
  order: PlacedOrder,
  cause: Cause,
): Promise<number> {
  let changed = 0;
  if (keyReleases(order).length === 0) return changed;
  // Keys shown in clear are on the order's custody stream, which its state does not fold: they left the store too.
  for (const release of keyReleases(await withKeysShownInCustody(eventStore, order))) {
    const { events } = await decideOnStream(
      eventStore,
      licenceKeysStream(release.productId),
      inventoryDecider,
      {
        type: 'ReleaseLicenceKeys',
        productId: release.productId,
        orderId: order.orderId,
        lineId: release.lineId,
        keys: release.keys,
        wanted: release.wanted,
        lowStockThreshold,
        now: new Date().toISOString(),
      },
      workersMetadata(cause),
    );
    if (events.length > 0) changed++;
  }
  return changed;
}

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
