import {
  inventoryDecider,
  keyReleases,
  type LicenseKeyCommand,
  licenseKeysStream,
  liveUnits,
  orderDecider,
  orderStream,
  type PlacedOrder,
  withKeysShownInCustody,
} from '@licensestore/domain';
import { loadStream } from '@licensestore/domain/commands';
import type { NewEventMetadata } from '@licensestore/domain/events';
import { type Cause, workersMetadata } from '../jobs/causation.js';
import { decideOnStream } from '../jobs/conflicts.js';
import type { ProcessorContext } from './context.js';

type Context = Pick<ProcessorContext, 'eventStore' | 'lowStockThreshold'>;

/** Decides one inventory command on its stream: at once, or grouped with others (the assign-keys job's way). */
export type InventoryDecision = (
  stream: string,
  command: LicenseKeyCommand,
  metadata: NewEventMetadata,
) => Promise<unknown>;

/** A paid order that is neither cancelled nor refunded is owed a key for each unit still the customer's. */
export const owedKeys = (order: PlacedOrder) =>
  order.payment === 'completed' && order.status !== 'cancelled' && order.status !== 'refunded';

/**
 * Requests the keys of every line still owed some, on the product's inventory stream: as many as the line has units
 * still the customer's. The inventory decides which keys (or queues the line) under its expected revision, so no key
 * goes to two lines; it asks only for keys the line neither holds nor waits for, which makes asking again harmless.
 * The keys reach the order through the inventory's LicenceKeysAssigned event (record-order-keys), never through
 * this request. A reopened order first gives back the keys it gave up, so the inventory no longer counts them as the
 * line's when it asks again.
 */
export async function requestOrderKeys(
  context: Context,
  order: PlacedOrder,
  cause: Cause,
  decide: InventoryDecision = (stream, command, metadata) =>
    decideOnStream(context.eventStore, stream, inventoryDecider, command, metadata),
): Promise<void> {
  await releaseOrderKeys(context, order, cause);
  const live = liveUnits(order);
  for (const line of order.lines) {
    const units = live.filter((unit) => unit.lineId === line.lineId);
    if (units.every((unit) => unit.keyId !== null)) continue;
    await decide(
      licenseKeysStream(line.productId),
      {
        type: 'RequestLicenseKeys',
        productId: line.productId,
        orderId: order.orderId,
        lineId: line.lineId,
        quantity: units.length,
        lowStockThreshold: context.lowStockThreshold,
        now: new Date().toISOString(),
      },
      workersMetadata(cause),
    );
  }
}

/**
 * Gives each product's inventory back what the order no longer holds (keyReleases): every step is decided on the
 * inventory's own stream with its expected revision and changes nothing when done already, so a repeated or
 * crossing job is harmless. Returns how many lines gave something back.
 *
 * A release decided on a cancelled order withdraws its lines' places in line. An admin may reopen the order between
 * the read and the append, and the reopened order may ask again in that window: the append then withdraws the new
 * place. So once such a release is stored the order is read again, and if it is owed keys by then it asks again
 * (asking is harmless, see requestOrderKeys): whichever comes last, the reopened order is in line.
 */
export async function releaseOrderKeys(context: Context, order: PlacedOrder, cause: Cause): Promise<number> {
  if (keyReleases(order).length === 0) return 0;
  let changed = 0;
  // Keys shown in clear are on the order's custody stream, which its state does not fold: they left the store too.
  for (const release of keyReleases(await withKeysShownInCustody(context.eventStore, order))) {
    const { events } = await decideOnStream(
      context.eventStore,
      licenseKeysStream(release.productId),
      inventoryDecider,
      {
        type: 'ReleaseLicenseKeys',
        productId: release.productId,
        orderId: order.orderId,
        lineId: release.lineId,
        keys: release.keys,
        wanted: release.wanted,
        lowStockThreshold: context.lowStockThreshold,
        now: new Date().toISOString(),
      },
      workersMetadata(cause),
    );
    if (events.length > 0) changed++;
  }
  // Only a release that stored something can have withdrawn a reopened order's new place in line.
  if (changed > 0 && !owedKeys(order)) {
    const { state: now } = await loadStream(context.eventStore, orderStream(order.orderId), orderDecider);
    if (now.status !== 'absent' && owedKeys(now)) await requestOrderKeys(context, now, cause);
  }
  return changed;
}
