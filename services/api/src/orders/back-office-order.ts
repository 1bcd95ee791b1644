import { orderStream } from '@licensestore/domain';
import type { EventStore } from '@licensestore/domain/events';
import type { DatabaseHandle } from '@licensestore/platform/db';
import { waitForProjections } from '@licensestore/platform/readmodel';
import { isUuid } from '../http/ids.js';
import { findBackOfficeOrder } from './queries.js';

/**
 * An order as the back office reads it, with the revision of its stream the answer may carry as its ETag (null when
 * none can be vouched for). The row comes from the read model, which may lag the stream, so the stream's last
 * revision is read first and the row only once the orders projection has passed that event: the row is then at
 * least as new as the tag. A tag older than the row costs at most a needless 412; a tag newer than the row would let
 * a save overwrite changes nobody saw. When the projection lags past the bound, the answer goes without a tag, and
 * the page's writes without If-Match, as before there were tags.
 */
export async function findTaggedBackOfficeOrder(
  { database, eventStore }: { database: DatabaseHandle; eventStore: EventStore },
  id: string,
) {
  const last = isUuid(id) ? await eventStore.readLastEvent(orderStream(id.toLowerCase())) : null;
  const caughtUp =
    last !== null && (await waitForProjections(database.pool, last.position, { projectors: ['orders'] }));
  const order = await findBackOfficeOrder(database.db, id);
  return { order, revision: caughtUp ? last.revision : null };
}
