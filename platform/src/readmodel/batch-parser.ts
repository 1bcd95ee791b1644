import { type RecordedEvent, streamCategory } from '@licensestore/domain/events';
import type { Logger } from '../logging/index.js';

interface ParsedBatch<Event> {
  events: Event[];
  rejected: Array<{ event: RecordedEvent; error: unknown }>;
}

/**
 * The events of one stream category in a batch, in log order, validated at the boundary, as a projector reads
 * them. An event that does not parse is a recorded fact we cannot use: logged (for each projector that reads
 * it) and skipped, never thrown.
 *
 * Validation runs once per batch whichever projectors read it: the result is remembered by the batch array
 * (weakly, so it goes with the batch). A replay hands one array to every projector, which otherwise validated
 * the same events once each. The parsed events are therefore shared and must be treated as read-only.
 */
export type BatchParser<Event> = (
  events: readonly RecordedEvent[],
  log: Logger,
  projector: string,
) => readonly Event[];

export function batchParser<Event>(options: {
  category: string;
  /** The event validated, or null for a type the projectors do not read; throws on bad data. */
  parse: (event: RecordedEvent) => Event | null;
  /** What an event is called in the warning about one that does not parse (`an order event`). */
  describes: string;
}): BatchParser<Event> {
  const { category, parse, describes } = options;
  const parsedBatches = new WeakMap<readonly RecordedEvent[], ParsedBatch<Event>>();
  const parseBatch = (events: readonly RecordedEvent[]): ParsedBatch<Event> => {
    const parsed: ParsedBatch<Event> = { events: [], rejected: [] };
    for (const event of events) {
      if (streamCategory(event.streamId) !== category) continue;
      try {
        const valid = parse(event);
        if (valid) parsed.events.push(valid);
      } catch (error) {
        parsed.rejected.push({ event, error });
      }
    }
    return parsed;
  };
  return (events, log, projector) => {
    let parsed = parsedBatches.get(events);
    if (!parsed) {
      parsed = parseBatch(events);
      parsedBatches.set(events, parsed);
    }
    for (const { event, error } of parsed.rejected) {
      log.warn(
        { projector, eventId: event.id, type: event.type, position: event.position, err: error },
        `skipping ${describes} whose data does not parse`,
      );
    }
    return parsed.events;
  };
}

/**
 * The event with the id its stream is keyed by in lower case: Postgres compares uuids regardless of case, the folds
 * key maps by the id text, so it has one spelling. The parsed data is shared with the event's other readers: a
 * different spelling gets a copy.
 */
export function withLowerCaseId<Event extends { data: { [K in Key]: string } }, Key extends string>(
  event: Event,
  key: Key,
): Event {
  const id = event.data[key].toLowerCase();
  return id === event.data[key] ? event : ({ ...event, data: { ...event.data, [key]: id } } as Event);
}
