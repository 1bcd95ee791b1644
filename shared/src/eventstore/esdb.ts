import {
  ANY,
  EventStoreDBClient,
  excludeSystemEvents,
  jsonEvent,
  NO_STREAM,
  type ResolvedEvent,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import {
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  eventMetadataSchema,
  type NewEvent,
  type Position,
  type RecordedEvent,
  WrongExpectedRevisionError,
} from './port.js';
import { decodePosition, encodePosition } from './position.js';

const toClientRevision = (expected: ExpectedRevision) =>
  expected === 'no_stream' ? NO_STREAM : expected === 'stream_exists' ? STREAM_EXISTS : expected === 'any' ? ANY : expected;

const toClientPosition = (position: Position | null) => {
  if (!position) return START;
  const [commit, prepare] = decodePosition(position);
  return { commit, prepare };
};

function toRecorded(resolved: ResolvedEvent): RecordedEvent | null {
  const event = resolved.event;
  if (!event || event.type.startsWith('$') || event.isJson === false) return null;
  const position = event.position ?? resolved.commitPosition;
  const commit = typeof position === 'bigint' ? position : position?.commit;
  const prepare = typeof position === 'bigint' ? position : position?.prepare;
  return {
    id: event.id,
    streamId: event.streamId,
    revision: event.revision,
    type: event.type,
    data: event.data,
    metadata: eventMetadataSchema.parse(event.metadata),
    position: encodePosition(commit ?? 0n, prepare ?? 0n),
    createdAt: event.created,
  };
}

/** Thin adapter over @eventstore/db-client, selected when EVENTSTORE_CONNECTION_STRING is set. */
export class EventStoreDbEventStore implements EventStore {
  private readonly client: EventStoreDBClient;

  constructor(connectionString: string) {
    this.client = EventStoreDBClient.connectionString(connectionString);
  }

  async append(stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    try {
      const result = await this.client.appendToStream(
        stream,
        events.map((event) =>
          jsonEvent({
            ...(event.id ? { id: event.id } : {}),
            type: event.type,
            data: event.data as Record<string, unknown>,
            metadata: event.metadata,
          }),
        ),
        { expectedRevision: toClientRevision(expected) },
      );
      const position = result.position ?? { commit: 0n, prepare: 0n };
      return {
        nextExpectedRevision: result.nextExpectedRevision,
        position: encodePosition(position.commit, position.prepare),
      };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        const actual = error.actualVersion;
        throw new WrongExpectedRevisionError(stream, expected, typeof actual === 'bigint' ? actual : 'no_stream');
      }
      throw error;
    }
  }

  async *readStream(stream: string): AsyncIterable<RecordedEvent> {
    try {
      for await (const resolved of this.client.readStream(stream)) {
        const event = toRecorded(resolved);
        if (event) yield event;
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return;
      throw error;
    }
  }

  async readAll(after: Position | null, limit: number): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    // readAll has no server-side filter in v6 and its start position is inclusive: over-read and filter here.
    for await (const resolved of this.client.readAll({ fromPosition: toClientPosition(after), maxCount: limit + 1 })) {
      const event = toRecorded(resolved);
      if (!event || (after && event.position <= after)) continue;
      events.push(event);
      if (events.length === limit) break;
    }
    return events;
  }

  async *subscribeAll(after: Position | null, signal: AbortSignal): AsyncIterable<RecordedEvent> {
    const subscription = this.client.subscribeToAll({
      fromPosition: toClientPosition(after),
      filter: excludeSystemEvents(),
    });
    const onAbort = () => void subscription.unsubscribe();
    signal.addEventListener('abort', onAbort);
    try {
      for await (const resolved of subscription) {
        if (signal.aborted) return;
        const event = toRecorded(resolved);
        if (event) yield event;
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
      await subscription.unsubscribe();
    }
  }

  async close(): Promise<void> {
    await this.client.dispose();
  }
}
