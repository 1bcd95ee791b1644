import { isUnreadable, type LogEntry, type RecordedEvent } from '@licensestore/domain/events';

// Remembered by the batch array (weakly), so that every projector handed one batch gets the same readable array and
// the per-batch parse cache of the projectors keeps working.
const readableBatches = new WeakMap<readonly LogEntry[], readonly RecordedEvent[]>();

/** The events of a batch that read, in log order: what a projector or a fold applies. */
export function readableEvents(entries: readonly LogEntry[]): readonly RecordedEvent[] {
  let readable = readableBatches.get(entries);
  if (!readable) {
    readable = entries.some(isUnreadable)
      ? entries.filter((entry): entry is RecordedEvent => !isUnreadable(entry))
      : (entries as readonly RecordedEvent[]);
    readableBatches.set(entries, readable);
  }
  return readable;
}
