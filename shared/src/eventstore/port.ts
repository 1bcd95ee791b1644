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
  /** Up to `limit` events after `after` (exclusive) in global order, system events excluded. */
  readAll(after: Position | null, limit: number): Promise<RecordedEvent[]>;
  /** Catch-up from `after` (exclusive), then live, until `signal` aborts. */
  subscribeAll(after: Position | null, signal: AbortSignal): AsyncIterable<RecordedEvent>;
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
