import type { EventStore, LogEntry, Position } from '@licensestore/domain/events';

/**
 * The log after `after`, in batches of up to `batchSize`, until the end as it is when the loop gets there.
 * The next batch is read while the caller writes this one: reading and writing overlap on the two sides of the
 * store, which is most of what makes a rebuild or a replay fast.
 */
export async function* readBatches(
  store: EventStore,
  after: Position | null,
  batchSize: number,
  signal?: AbortSignal,
): AsyncGenerator<LogEntry[]> {
  let reading = prefetch(store, after, batchSize);
  for (;;) {
    signal?.throwIfAborted();
    const batch = await reading;
    if (batch.length === 0) return;
    const last = (batch[batch.length - 1] as LogEntry).position;
    reading = batch.length === batchSize ? prefetch(store, last, batchSize) : Promise.resolve([]);
    yield batch;
  }
}

function prefetch(store: EventStore, after: Position | null, limit: number): Promise<LogEntry[]> {
  const reading = store.readAll(after, limit);
  // Awaited later; until then a failure must not count as unhandled.
  reading.catch(() => {});
  return reading;
}
