import type { EventBehind, Mismatch, RowDifference } from '@licensestore/domain/audit-verify';
import type { EventStore, Position, RecordedEvent } from '@licensestore/domain/events';
import type { Database } from '@licensestore/platform/db';
import type { Kysely } from 'kysely';
import type { Projector, RowSource } from '../projector.js';

/** Most events shown behind one mismatch: the latest ones, the rest counted. */
const EVENTS_SHOWN = 20;

/** Reads each stream once per verification, however many mismatches it explains. */
export function streamReader(store: EventStore) {
  const streams = new Map<string, Promise<RecordedEvent[]>>();
  return (stream: string) => {
    let reading = streams.get(stream);
    if (!reading) {
      reading = (async () => {
        const events: RecordedEvent[] = [];
        for await (const event of store.readStream(stream)) events.push(event);
        return events;
      })();
      streams.set(stream, reading);
    }
    return reading;
  };
}

const mentions = (event: RecordedEvent, text: string) =>
  JSON.stringify(event.data).toLowerCase().includes(text.toLowerCase());

/**
 * The events behind a row that differs: the streams its projector names for either side of it, narrowed to the
 * events that mention the row where a stream is shared, up to the position the table was compared at.
 */
export async function explain(
  difference: RowDifference,
  options: {
    projector: Projector;
    db: Kysely<Database>;
    readStream: ReturnType<typeof streamReader>;
    upTo: Position | null;
  },
): Promise<Mismatch> {
  const { projector, db, readStream, upTo } = options;
  const sourcesOf = projector.sources?.[difference.table];
  const sides = [difference.live, difference.replayed].filter((row) => row !== null);
  const sources: RowSource[] = [];
  let wholeLog = false;
  for (const row of sides) {
    const found = (await sourcesOf?.(row, db)) ?? [];
    if (found === 'whole-log') wholeLog = true;
    else sources.push(...found);
  }
  const seen = new Map<string, EventBehind>();
  for (const source of sources) {
    for (const event of await readStream(source.stream)) {
      if (upTo === null || event.position > upTo) continue;
      if (source.mentioning !== undefined && !mentions(event, source.mentioning)) continue;
      seen.set(event.id, {
        stream: event.streamId,
        type: event.type,
        position: event.position,
        at: event.createdAt.toISOString(),
      });
    }
  }
  const events = [...seen.values()].sort((a, b) => (a.position < b.position ? -1 : 1));
  return {
    ...difference,
    events: events.slice(-EVENTS_SHOWN),
    earlierEvents: Math.max(0, events.length - EVENTS_SHOWN),
    behind: sourcesOf === undefined ? 'unknown' : wholeLog ? 'whole-log' : 'streams',
  };
}
