import { checkEventData } from './event-schemas.js';
import {
  type EventMetadata,
  type EventStore,
  isUnreadable,
  type LogEntry,
  type NewEvent,
  type Position,
  type RecordedEvent,
  unreadableEvent,
} from './port.js';

/** Turns an event's data from one version's shape into the next one's. Pure; lenient with data it cannot read. */
export type Upcaster = (data: unknown) => unknown;

/** A stored event written by newer code than this: reading it in an older shape would misread it. */
export class FutureEventVersionError extends Error {
  constructor(
    readonly event: Pick<RecordedEvent, 'id' | 'type' | 'streamId'>,
    readonly version: number,
    readonly currentVersion: number,
  ) {
    super(
      `event ${event.id} (${event.type} in ${event.streamId}) is version ${version}, ` +
        `newer than the ${currentVersion} this code knows: deploy the code that writes it before reading it`,
    );
    this.name = 'FutureEventVersionError';
  }
}

/**
 * The registry of event versions: for each event type whose shape changed, its upcasters from version 1 up
 * (`[v1→v2, v2→v3, …]`), so its current version is one more than their count. Types not listed are at version 1.
 */
export class EventVersions {
  private readonly chains: ReadonlyMap<string, readonly Upcaster[]>;

  constructor(chains: Readonly<Record<string, readonly Upcaster[]>>) {
    this.chains = new Map(Object.entries(chains));
  }

  currentVersion(type: string): number {
    return (this.chains.get(type)?.length ?? 0) + 1;
  }

  /** The event as written now: its metadata carries its type's current version, whatever the writer gave. */
  stamp<Event extends NewEvent>(event: Event): Event & { metadata: EventMetadata } {
    return { ...event, metadata: { ...event.metadata, schemaVersion: this.currentVersion(event.type) } };
  }

  /**
   * The event in its type's current shape, through every upcaster from its stored version on; an event already
   * current is returned as it is. A version newer than the code throws FutureEventVersionError.
   */
  upcast(event: RecordedEvent): RecordedEvent {
    const stored = event.metadata.schemaVersion;
    const current = this.currentVersion(event.type);
    if (stored === current) return event;
    if (stored > current) throw new FutureEventVersionError(event, stored, current);
    const chain = this.chains.get(event.type) ?? [];
    const data = chain.slice(stored - 1).reduce((shaped, upcaster) => upcaster(shaped), event.data);
    return { ...event, data, metadata: { ...event.metadata, schemaVersion: current } };
  }
}

/**
 * The event store every reader and writer uses (openEventStore wraps each adapter in it): appends record each
 * type's current version, and every read path hands out events in their current shape only. The reads of the whole
 * log also check each event's data against its type's schema, and hand out an event that cannot be brought to its
 * current shape, or whose data fails it, as unreadable: every reader then skips the same events. A stream's own
 * reads throw instead, since a decision on a history with a hole in it would be wrong.
 */
export function versionedEventStore(store: EventStore, versions: EventVersions): EventStore {
  async function* upcastAll(events: AsyncIterable<RecordedEvent>) {
    for await (const event of events) yield versions.upcast(event);
  }
  const readable = (entry: LogEntry): LogEntry => {
    if (isUnreadable(entry)) return entry;
    try {
      const event = versions.upcast(entry);
      checkEventData(event);
      return event;
    } catch (error) {
      return unreadableEvent(entry, error);
    }
  };
  async function* readableAll(entries: AsyncIterable<LogEntry>) {
    for await (const entry of entries) yield readable(entry);
  }
  return {
    append: (stream, events, expected) =>
      store.append(
        stream,
        events.map((event) => versions.stamp(event)),
        expected,
      ),
    readStream: (stream, fromRevision) => upcastAll(store.readStream(stream, fromRevision)),
    readLastEvent: async (stream) => {
      const last = await store.readLastEvent(stream);
      return last && versions.upcast(last);
    },
    readAll: async (after: Position | null, limit: number) =>
      (await store.readAll(after, limit)).map(readable),
    readAllOfTypes: async (after, limit, types) =>
      (await store.readAllOfTypes(after, limit, types)).map(readable),
    subscribeAll: (after, signal) => readableAll(store.subscribeAll(after, signal)),
    close: () => store.close(),
  };
}
