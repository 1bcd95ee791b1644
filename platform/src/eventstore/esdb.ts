import {
  ANY,
  BACKWARDS,
  END,
  EventStoreDBClient,
  excludeSystemEvents,
  jsonEvent,
  MaxAppendSizeExceededError,
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
  type LogEntry,
  type NewEvent,
  type Position,
  type RecordedEvent,
  recordedOrThrow,
  unreadableEvent,
  WrongExpectedRevisionError,
} from '@licensestore/domain/events';
import { AppendTooLargeError, appendBytes, refuseOversizedAppend, serialized } from './append-size.js';
import { decodePosition, encodePosition } from './position.js';

const toClientRevision = (expected: ExpectedRevision) =>
  expected === 'no_stream'
    ? NO_STREAM
    : expected === 'stream_exists'
      ? STREAM_EXISTS
      : expected === 'any'
        ? ANY
        : expected;

const toClientPosition = (position: Position | null) => {
  if (!position) return START;
  const [commit, prepare] = decodePosition(position);
  return { commit, prepare };
};

/** Log positions are signed 64-bit numbers on the server: from 2^63 up, a number is -1 sent as unsigned. */
const UNKNOWN_POSITION = 2n ** 63n;

const isSystem = (resolved: ResolvedEvent) =>
  !resolved.event || resolved.event.type.startsWith('$') || resolved.event.streamId.startsWith('$');

function positionOf(resolved: ResolvedEvent): Position {
  const position = resolved.event?.position;
  if (position) return encodePosition(position.commit, position.prepare);
  const commit = resolved.commitPosition ?? 0n;
  return encodePosition(commit, commit);
}

/** The event's place in the log, without its contents; null for what is not ours (system events, non-JSON data). */
function placeOf(resolved: ResolvedEvent) {
  const event = resolved.event;
  if (!event || isSystem(resolved) || event.isJson === false) return null;
  const { id, streamId, revision, type, created } = event;
  return { id, streamId, revision, type, position: positionOf(resolved), createdAt: created };
}

/** An event as the log reads hand it out: one whose metadata fails its schema is unreadable, not a reason to throw. */
function toEntry(resolved: ResolvedEvent): LogEntry | null {
  const place = placeOf(resolved);
  if (!place) return null;
  const metadata = eventMetadataSchema.safeParse(resolved.event?.metadata);
  return metadata.success
    ? { ...place, data: resolved.event?.data, metadata: metadata.data }
    : unreadableEvent(place, metadata.error, 'metadata');
}

/** An event as a stream's reads hand it out: a command must not decide on a history with a hole in it. */
function toRecorded(resolved: ResolvedEvent): RecordedEvent | null {
  const entry = toEntry(resolved);
  return entry && recordedOrThrow(entry);
}

/** Thin adapter over @eventstore/db-client, selected when EVENTSTORE_CONNECTION_STRING is set. */
export class EventStoreDbEventStore implements EventStore {
  private readonly client: EventStoreDBClient;

  constructor(connectionString: string) {
    this.client = EventStoreDBClient.connectionString(connectionString);
  }

  async append(stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    const written = serialized(events);
    refuseOversizedAppend(stream, written);
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
      return {
        nextExpectedRevision: result.nextExpectedRevision,
        position: result.position
          ? encodePosition(result.position.commit, result.position.prepare)
          : await this.positionOfRevision(stream, result.nextExpectedRevision),
      };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        const actual = error.actualVersion;
        throw new WrongExpectedRevisionError(
          stream,
          expected,
          typeof actual === 'bigint' ? actual : 'no_stream',
        );
      }
      if (error instanceof MaxAppendSizeExceededError) {
        // A server configured below the default limit.
        throw new AppendTooLargeError(stream, appendBytes(written), error.maxAppendSize);
      }
      throw error;
    }
  }

  /**
   * The log position of the stream's event at `revision`, for an append the server answered without one (it may,
   * for a repeat of events it already holds). Never a stand-in: position zero would let every read-your-writes
   * wait pass at once, before any reader has the events.
   */
  private async positionOfRevision(stream: string, revision: bigint): Promise<Position> {
    for await (const resolved of this.client.readStream(stream, { fromRevision: revision, maxCount: 1 })) {
      const position = resolved.event?.position ?? null;
      // A server that does not know an event's log position when reading a stream answers -1 as unsigned.
      if (position && position.commit < UNKNOWN_POSITION) {
        return encodePosition(position.commit, position.prepare);
      }
    }
    throw new Error(
      `stream ${stream}: EventStoreDB answered the append without a log position, and revision ${revision} has none`,
    );
  }

  async *readStream(stream: string, fromRevision = 0n): AsyncIterable<RecordedEvent> {
    try {
      for await (const resolved of this.client.readStream(stream, { fromRevision })) {
        const event = toRecorded(resolved);
        if (event) yield event;
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return;
      throw error;
    }
  }

  async readLastEvent(stream: string): Promise<RecordedEvent | null> {
    try {
      for await (const resolved of this.client.readStream(stream, {
        direction: BACKWARDS,
        fromRevision: END,
        maxCount: 1,
      })) {
        return toRecorded(resolved);
      }
      return null;
    } catch (error) {
      if (error instanceof StreamNotFoundError) return null;
      throw error;
    }
  }

  async readAll(after: Position | null, limit: number): Promise<LogEntry[]> {
    const events: LogEntry[] = [];
    // readAll has no server-side filter in v6 and its start position is inclusive. Page on past system events
    // (a fresh server starts with many): a short answer must mean "nothing more yet", never "a page of $-events".
    const page = Math.max(limit, 1) + 1;
    let cursor = after;
    while (events.length < limit) {
      let seen = 0;
      let last = cursor;
      for await (const resolved of this.client.readAll({
        fromPosition: toClientPosition(cursor),
        maxCount: page,
      })) {
        seen++;
        const position = positionOf(resolved);
        if (cursor && position <= cursor) continue;
        last = position;
        const event = toEntry(resolved);
        if (event && events.length < limit) events.push(event);
      }
      if (seen < page || last === cursor) break;
      cursor = last;
    }
    return events;
  }

  /** Filtered here, page by page of `readAll`: the client's $all read has no filter by type on the server. */
  async readAllOfTypes(after: Position | null, limit: number, types: readonly string[]): Promise<LogEntry[]> {
    const wanted = new Set(types);
    const events: LogEntry[] = [];
    let cursor = after;
    while (events.length < limit) {
      const page = await this.readAll(cursor, limit);
      for (const entry of page) {
        if (wanted.has(entry.type)) events.push(entry);
        if (events.length === limit) return events;
      }
      if (page.length < limit) break;
      cursor = page.at(-1)?.position ?? cursor;
    }
    return events;
  }

  async *subscribeAll(after: Position | null, signal: AbortSignal): AsyncIterable<LogEntry> {
    if (signal.aborted) return;
    const subscription = this.client.subscribeToAll({
      fromPosition: toClientPosition(after),
      filter: excludeSystemEvents(),
    });
    // Cancelling the gRPC call does not reliably end a pending read, so an abort races every read.
    const iterator = subscription[Symbol.asyncIterator]() as AsyncIterator<ResolvedEvent>;
    let onAbort = () => {};
    const aborted = new Promise<IteratorResult<ResolvedEvent>>((resolve) => {
      onAbort = () => resolve({ done: true, value: undefined });
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      for (;;) {
        const next = iterator.next();
        next.catch(() => {}); // a read left pending by an abort fails when the stream is torn down
        const result = await Promise.race([next, aborted]);
        if (result.done || signal.aborted) return;
        const event = toEntry(result.value);
        if (event) yield event;
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
      await subscription.unsubscribe().catch(() => {});
      subscription.destroy();
    }
  }

  async close(): Promise<void> {
    await this.client.dispose();
  }
}
