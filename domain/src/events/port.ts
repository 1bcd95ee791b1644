import { z } from 'zod';

/** ESDB rules: revisions start at 0; `no_stream`, `stream_exists` and `any` are the symbolic expectations. */
export type ExpectedRevision = 'no_stream' | 'any' | 'stream_exists' | bigint;

/**
 * A position in the global log. Opaque to callers, but adapters encode it so that plain string comparison
 * orders positions the way the log delivers them (fixed-width numbers), which lets Postgres compare
 * checkpoints without knowing which store wrote them.
 */
export type Position = string;

export const actorSchema = z.object({
  type: z.enum(['customer', 'admin', 'system']),
  id: z.string().min(1),
});
export type Actor = z.infer<typeof actorSchema>;

export const eventMetadataSchema = z.object({
  actor: actorSchema,
  correlationId: z.string().min(1),
  causationId: z.string().min(1),
  schemaVersion: z.number().int().positive(),
});
/** Metadata as recorded: `schemaVersion` is the shape `data` was written in (ADR 014). */
export type EventMetadata = z.infer<typeof eventMetadataSchema>;

/**
 * Metadata as a writer gives it, without `schemaVersion`: the store `openEventStore` returns records the event
 * type's current version from one registry (ADR 014), overwriting any given. Only the bare adapters underneath
 * store a given version as it is (how a test writes an old event).
 */
export type NewEventMetadata = Omit<EventMetadata, 'schemaVersion'> & { schemaVersion?: number };

export interface NewEvent {
  /** Defaults to a random UUID. Appending the same ids again is a no-op (idempotent retry). */
  id?: string;
  type: string;
  data: unknown;
  metadata: NewEventMetadata;
}

export interface RecordedEvent {
  id: string;
  streamId: string;
  revision: bigint;
  type: string;
  data: unknown;
  metadata: EventMetadata;
  position: Position;
  createdAt: Date;
}

/**
 * A stored event that no longer reads: its metadata or data fails its schema, or no upcaster brings it to the shape
 * this code knows. The log reads hand it out in its place instead of throwing, so that one such event cannot stop
 * every reader behind it; each reader parks it (records it for people to look at) and moves past its position.
 */
export interface UnreadableEvent {
  readonly unreadable: true;
  id: string;
  streamId: string;
  revision: bigint;
  type: string;
  position: Position;
  createdAt: Date;
  /** Why it does not read, in words a person can act on. */
  reason: string;
}

/** What the reads of the whole log hand out, in log order: events, and in the place of each that does not read, that. */
export type LogEntry = RecordedEvent | UnreadableEvent;

export const isUnreadable = (entry: LogEntry): entry is UnreadableEvent => 'unreadable' in entry;

/** The entry as an event, for a reader that must have every event (an export of the log): throws on one that does not read. */
export function recordedOrThrow(entry: LogEntry): RecordedEvent {
  if (isUnreadable(entry)) {
    throw new Error(
      `event ${entry.id} (${entry.type} in ${entry.streamId} at ${entry.position}) does not read: ${entry.reason}`,
    );
  }
  return entry;
}

/** An unreadable entry for an event whose reading threw `error`; a schema's error names the part that failed it. */
export const unreadableEvent = (
  event: Omit<RecordedEvent, 'data' | 'metadata'>,
  error: unknown,
  part: 'metadata' | 'data' = 'data',
): UnreadableEvent => ({
  unreadable: true,
  id: event.id,
  streamId: event.streamId,
  revision: event.revision,
  type: event.type,
  position: event.position,
  createdAt: event.createdAt,
  reason: reasonOf(error, part),
});

/** A zod error as its issues (`data.orderId: Invalid UUID`), any other error as its message. */
function reasonOf(error: unknown, part: string): string {
  if (error instanceof z.ZodError) {
    return error.issues.map((issue) => `${[part, ...issue.path].join('.')}: ${issue.message}`).join('; ');
  }
  return error instanceof Error ? error.message : String(error);
}

export interface AppendResult {
  /** The revision of the append's last event. */
  nextExpectedRevision: bigint;
  /**
   * The position of the append's last event in the global log: a reader past it has every event of the append,
   * and reading `$all` after it returns none of them.
   */
  position: Position;
}

export interface EventStore {
  /** All or nothing; more than MAX_APPEND_BYTES at once is refused with AppendTooLargeError. */
  append(stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult>;
  /** The stream's events in revision order from `fromRevision` (inclusive, default 0); empty for a missing stream. */
  readStream(stream: string, fromRevision?: bigint): AsyncIterable<RecordedEvent>;
  /** The stream's last event (highest revision), null for a missing stream: one read, however long the stream. */
  readLastEvent(stream: string): Promise<RecordedEvent | null>;
  /**
   * Up to `limit` entries after `after` (exclusive) in global order, system events excluded; an event that does not
   * read is an UnreadableEvent in its place.
   */
  readAll(after: Position | null, limit: number): Promise<LogEntry[]>;
  /**
   * As `readAll`, but only the events of the given types: a reader of a few types is not handed the rest of the log.
   * A page shorter than `limit` means, as `readAll`'s does, that no more of them is there yet.
   */
  readAllOfTypes(after: Position | null, limit: number, types: readonly string[]): Promise<LogEntry[]>;
  /** Catch-up from `after` (exclusive), then live, until `signal` aborts; entries as `readAll` hands them out. */
  subscribeAll(after: Position | null, signal: AbortSignal): AsyncIterable<LogEntry>;
  close(): Promise<void>;
}

export class WrongExpectedRevisionError extends Error {
  constructor(
    readonly stream: string,
    readonly expected: ExpectedRevision,
    readonly actual: bigint | 'no_stream',
  ) {
    super(`stream ${stream}: expected revision ${String(expected)}, actual ${String(actual)}`);
    this.name = 'WrongExpectedRevisionError';
  }
}

/** Category of a stream id (`product-123` → `product`), the EventStoreDB convention. */
export const streamCategory = (streamId: string) => streamId.slice(0, Math.max(0, streamId.indexOf('-')));
