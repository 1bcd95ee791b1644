import { type EventStore, type RecordedEvent, recordedOrThrow } from '@licensestore/domain/events';
import type { ExportRange } from '@licensestore/platform/audit-period-export';
import { readBatches } from '../read-batches.js';

/**
 * The events of the log recorded in the range (from inclusive, to exclusive), in the log's own order, as the
 * shared export's reader yields them, but reading the next batch while this one is written: the command line
 * exports the whole log to a file, where the overlap is most of the time saved. The whole log is read because
 * recordedAt is not monotonic along it (an event carries its transaction's start, and transactions commit out of
 * order).
 */
export async function* eventsRecordedIn(
  store: EventStore,
  range: ExportRange,
  batchSize = 2000,
): AsyncGenerator<RecordedEvent> {
  const recordedInRange = (at: Date) => at >= range.from && at < range.to;
  for await (const batch of readBatches(store, null, batchSize)) {
    yield* batch.filter((entry) => recordedInRange(entry.createdAt)).map(recordedOrThrow);
  }
}
