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
import type pg from 'pg';
import { timeOrderedId } from '../ids/index.js';
import { type ChannelListener, type ChannelMember, channelListener } from '../listen/index.js';
import { refuseOversizedAppend, type SerializedEvent, serialized } from './append-size.js';
import { decodePosition, encodePosition } from './position.js';

const CHANNEL = 'event_store_appended';
const CONFLICT = 'ES409';
const STREAM_PAGE = 1000;
const SUBSCRIPTION_BATCH = 1000;
/** How long a subscriber waits before looking again when committed events are held back by an older open transaction. */
const HELD_BACK_RETRY_MS = 20;
/** Notifications cannot be lost while the connection lives; this only bounds the damage if one ever is. */
const SAFETY_WAKE_MS = 5000;

interface EventRow {
  global_position: string;
  transaction_id: string;
  stream_id: string;
  stream_revision: string;
  event_id: string;
  event_type: string;
  data: unknown;
  metadata: unknown;
  created_at: Date;
}

// The select list renders transaction_id as text; ORDER BY must name the table's column (xid8), not this alias.
const COLUMNS =
  'global_position, transaction_id::text AS transaction_id, stream_id, stream_revision, event_id, event_type, data, metadata, created_at';

/** The row's place in the log, without its contents. */
const placeOf = (row: EventRow) => ({
  id: row.event_id,
  streamId: row.stream_id,
  revision: BigInt(row.stream_revision),
  type: row.event_type,
  position: encodePosition(row.transaction_id, row.global_position),
  createdAt: row.created_at,
});

/** A row as the log reads hand it out: one whose metadata fails its schema is unreadable, not a reason to throw. */
function toEntry(row: EventRow): LogEntry {
  const metadata = eventMetadataSchema.safeParse(row.metadata);
  return metadata.success
    ? { ...placeOf(row), data: row.data, metadata: metadata.data }
    : unreadableEvent(placeOf(row), metadata.error, 'metadata');
}

/** A row as a stream's reads hand it out: a command must not decide on a history with a hole in it. */
const toRecorded = (row: EventRow): RecordedEvent => recordedOrThrow(toEntry(row));

/**
 * Event store on one Postgres table. The global order is (writer transaction id, position), read only below
 * the oldest running transaction, so an event whose transaction commits late is never skipped
 * (see docs/decisions/002-postgres-event-store.md).
 */
export class PostgresEventStore implements EventStore {
  private readonly notifier: AppendNotifier;
  private listener: AppendListener | null = null;

  constructor(private readonly pool: pg.Pool) {
    this.notifier = new AppendNotifier(pool);
  }

  async append(stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    const result = await appendWith(this.pool, stream, events, expected);
    this.notifier.poke();
    return result;
  }

  async *readStream(stream: string, fromRevision = 0n): AsyncIterable<RecordedEvent> {
    let from = fromRevision;
    for (;;) {
      const { rows } = await this.pool.query<EventRow>(
        `SELECT ${COLUMNS} FROM event_store.events WHERE stream_id = $1 AND stream_revision >= $2
         ORDER BY stream_revision LIMIT $3`,
        [stream, from.toString(), STREAM_PAGE],
      );
      for (const row of rows) yield toRecorded(row);
      if (rows.length < STREAM_PAGE) return;
      from += BigInt(STREAM_PAGE);
    }
  }

  async readLastEvent(stream: string): Promise<RecordedEvent | null> {
    const { rows } = await this.pool.query<EventRow>(
      `SELECT ${COLUMNS} FROM event_store.events WHERE stream_id = $1 ORDER BY stream_revision DESC LIMIT 1`,
      [stream],
    );
    return rows[0] ? toRecorded(rows[0]) : null;
  }

  readAll(after: Position | null, limit: number): Promise<LogEntry[]> {
    return this.readLog(after, limit, null);
  }

  readAllOfTypes(after: Position | null, limit: number, types: readonly string[]): Promise<LogEntry[]> {
    return this.readLog(after, limit, types);
  }

  /**
   * The log after `after`, of the given types only when `types` is given: the walk of the log's order index is the
   * same, the rows of other types are passed over in the database, never read out or parsed here.
   */
  private async readLog(after: Position | null, limit: number, types: readonly string[] | null) {
    const [transactionId, position] = after ? decodePosition(after) : [0n, 0n];
    const { rows } = await this.pool.query<EventRow>(
      `SELECT ${COLUMNS} FROM event_store.events
        WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())
          AND (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
          ${types ? 'AND event_type = ANY($4::text[])' : ''}
        ORDER BY events.transaction_id, events.global_position
        LIMIT $3`,
      [transactionId.toString(), position.toString(), limit, ...(types ? [types] : [])],
    );
    return rows.map(toEntry);
  }

  async *subscribeAll(after: Position | null, signal: AbortSignal): AsyncIterable<LogEntry> {
    const wakeup = await this.listen(signal);
    try {
      let checkpoint = after;
      while (!signal.aborted) {
        wakeup.reset();
        const batch = await this.readAll(checkpoint, SUBSCRIPTION_BATCH);
        for (const event of batch) {
          if (signal.aborted) return;
          yield event;
          checkpoint = event.position;
        }
        if (batch.length === SUBSCRIPTION_BATCH) continue;
        wakeup.throwIfFailed();
        const unread = await this.hasUnreadEvents(checkpoint);
        await wakeup.wait(unread ? HELD_BACK_RETRY_MS : SAFETY_WAKE_MS);
      }
    } finally {
      await wakeup.close();
    }
  }

  async close(): Promise<void> {
    await this.notifier.idle();
    await this.pool.end();
  }

  /**
   * Committed events past the checkpoint. Right after a short readAll they are held back by an older open
   * transaction, which may not be an event-store one (no NOTIFY when it ends), so the caller looks again soon.
   * Not restricted to `transaction_id >= xmin`: that transaction may end between readAll and this query, and
   * the events it held back would then wait for the safety wake-up.
   */
  private async hasUnreadEvents(after: Position | null): Promise<boolean> {
    const [transactionId, position] = after ? decodePosition(after) : [0n, 0n];
    const { rows } = await this.pool.query<{ unread: boolean }>(
      `SELECT EXISTS (
         SELECT 1 FROM event_store.events
          WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)) AS unread`,
      [transactionId.toString(), position.toString()],
    );
    return rows[0]?.unread ?? false;
  }

  /** One LISTEN connection for all of this store's subscriptions, however many follow the log at once. */
  private async listen(signal: AbortSignal): Promise<Wakeup> {
    if (!this.listener || this.listener.failed) {
      this.listener = new AppendListener(channelListener(this.pool, CHANNEL));
    }
    return this.listener.join(signal);
  }
}

interface Wakeup {
  reset(): void;
  throwIfFailed(): void;
  wait(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

interface Subscriber {
  notified: boolean;
  wake: (() => void) | null;
}

/**
 * The subscriptions of a store following appends, one member of the pool's shared LISTEN connection on the append
 * channel (a connection each would exhaust the pool: a process following the log with many projectors would wait
 * forever for one). It leaves when the last subscription ends. A broken connection cannot be trusted to have
 * delivered every notification, so it fails all its subscriptions, which resume from their checkpoints on a new one.
 */
class AppendListener implements ChannelMember {
  failed = false;
  private failure: Error | null = null;
  private readonly subscribers = new Set<Subscriber>();
  private readonly ready: Promise<void>;

  constructor(private readonly channel: ChannelListener) {
    this.ready = channel.join(this);
    // Subscribers see a failure through join(); this only stops an unhandled rejection.
    this.ready.catch((error: Error) => this.lost(error));
  }

  notified() {
    for (const subscriber of this.subscribers) {
      subscriber.notified = true;
      subscriber.wake?.();
    }
  }

  lost(error: Error) {
    if (this.failed) return;
    this.failed = true;
    this.failure = error;
    for (const subscriber of this.subscribers) subscriber.wake?.();
  }

  async join(signal: AbortSignal): Promise<Wakeup> {
    const subscriber: Subscriber = { notified: false, wake: null };
    this.subscribers.add(subscriber);
    try {
      await this.ready;
    } catch (error) {
      this.subscribers.delete(subscriber);
      throw error;
    }
    const onAbort = () => subscriber.wake?.();
    signal.addEventListener('abort', onAbort);
    return {
      reset: () => {
        subscriber.notified = false;
      },
      throwIfFailed: () => {
        if (this.failure) throw this.failure;
      },
      wait: (timeoutMs) =>
        new Promise<void>((resolve) => {
          if (subscriber.notified || this.failure || signal.aborted) return resolve();
          const timer = setTimeout(() => done(), timeoutMs);
          const done = () => {
            clearTimeout(timer);
            subscriber.wake = null;
            resolve();
          };
          subscriber.wake = done;
        }),
      close: async () => {
        signal.removeEventListener('abort', onAbort);
        this.subscribers.delete(subscriber);
        if (this.subscribers.size === 0) await this.close();
      },
    };
  }

  private async close() {
    if (this.failed) return;
    // Retired first: a subscription starting from now on joins as a listener of its own.
    this.failed = true;
    await this.channel.leave(this);
  }
}

/**
 * Wakes subscribers after appends have committed. At most one NOTIFY is in flight per store; appends that commit
 * meanwhile share the next one, so a burst of appends costs a couple of notifications. If the process dies between
 * a commit and its notification, subscribers still find the events at their next look (SAFETY_WAKE_MS).
 */
class AppendNotifier {
  private inFlight: Promise<void> | null = null;
  private again = false;

  constructor(private readonly pool: pg.Pool) {}

  poke(): void {
    if (this.inFlight) {
      this.again = true;
      return;
    }
    this.inFlight = notifyAppended(this.pool)
      .catch(() => {})
      .finally(() => {
        this.inFlight = null;
        if (this.again) {
          this.again = false;
          this.poke();
        }
      });
  }

  async idle(): Promise<void> {
    while (this.inFlight) await this.inFlight;
  }
}

/** Tells subscribers that events were committed; for appends made with `appendWith` inside a caller's transaction. */
export async function notifyAppended(db: pg.Pool | pg.PoolClient): Promise<void> {
  await db.query(`SELECT pg_notify('${CHANNEL}', '')`);
}

/** One append of `appendManyWith`: a stream's events, at the revision the stream is expected to be. */
export interface StreamAppend {
  stream: string;
  events: NewEvent[];
  expected: ExpectedRevision;
}

/**
 * Many appends, to any streams, a few round trips for them all, each checked and written as `appendWith` writes it,
 * in the order given (a stream may take several). For bulk imports; inside a transaction, all or nothing. A wrong
 * expected revision throws (which append it was, the error cannot tell). Like `appendWith`, it does not wake
 * subscribers. Returns the last append's result.
 */
export async function appendManyWith(
  db: pg.Pool | pg.PoolClient,
  appends: readonly StreamAppend[],
): Promise<AppendResult> {
  if (appends.length === 0 || appends.some((append) => append.events.length === 0)) {
    throw new Error('append needs at least one event');
  }
  const written = appends.map((append) => {
    const events = serialized(append.events);
    refuseOversizedAppend(append.stream, events);
    return { ...append, events };
  });
  let result: AppendResult | undefined;
  for (const statement of statementsOf(written)) result = await appendStatement(db, statement);
  return result as AppendResult;
}

/**
 * Postgres finds an element of an array of variable-length values by walking it from the start, so slicing each
 * append's events out of one statement's arrays costs their length each time: statements stay short.
 */
const STATEMENT_EVENTS = 250;

function* statementsOf(appends: readonly SerializedAppend[]): Generator<SerializedAppend[]> {
  let statement: SerializedAppend[] = [];
  let events = 0;
  for (const append of appends) {
    if (events > 0 && events + append.events.length > STATEMENT_EVENTS) {
      yield statement;
      statement = [];
      events = 0;
    }
    statement.push(append);
    events += append.events.length;
  }
  yield statement;
}

async function appendStatement(db: pg.Pool | pg.PoolClient, appends: readonly SerializedAppend[]) {
  try {
    const { rows } = await db.query<AppendRow>(
      `SELECT * FROM event_store.append_many($1, $2, $3::int[], $4::uuid[], $5::text[], $6::jsonb[], $7::jsonb[])`,
      [
        appends.map((append) => append.stream),
        appends.map((append) => String(append.expected)),
        appends.map((append) => append.events.length),
        ...eventColumns(appends.flatMap((append) => append.events)),
      ],
    );
    return appendResult(rows[0]);
  } catch (error) {
    if ((error as { code?: string }).code !== CONFLICT) throw error;
    throw new Error(
      `an append of the batch expected a revision its stream is not at (${(error as Error).message})`,
      { cause: error },
    );
  }
}

interface AppendRow {
  next_revision: string;
  transaction_id: string;
  global_position: string;
}

/** A StreamAppend with its events serialized: measured against the append limit, then written as they are. */
interface SerializedAppend extends Omit<StreamAppend, 'events'> {
  events: SerializedEvent[];
}

/** The events as the append functions take them: ids, types, data and metadata, each a column. */
const eventColumns = (events: readonly SerializedEvent[]) => [
  events.map(({ event }) => event.id ?? timeOrderedId()),
  events.map(({ type }) => type),
  events.map(({ dataJson }) => dataJson),
  events.map(({ metadataJson }) => metadataJson),
];

function appendResult(row: AppendRow | undefined): AppendResult {
  if (!row) throw new Error('append returned no row');
  return {
    nextExpectedRevision: BigInt(row.next_revision),
    position: encodePosition(row.transaction_id, row.global_position),
  };
}

/** The append functions report a wrong expected revision as ES409, the stream's actual revision as the message. */
function conflictOf(error: unknown, stream: string, expected: ExpectedRevision): unknown {
  if ((error as { code?: string }).code !== CONFLICT) return error;
  const actual = (error as Error).message;
  return new WrongExpectedRevisionError(
    stream,
    expected,
    actual === 'no_stream' ? 'no_stream' : BigInt(actual),
  );
}

/**
 * Appends through any client or pool, so a caller can append inside a transaction it holds (the slow-writer case of
 * the contract suite). It does not wake subscribers: call `notifyAppended` once the transaction has committed.
 */
export async function appendWith(
  db: pg.Pool | pg.PoolClient,
  stream: string,
  events: NewEvent[],
  expected: ExpectedRevision,
): Promise<AppendResult> {
  if (events.length === 0) throw new Error('append needs at least one event');
  const written = serialized(events);
  refuseOversizedAppend(stream, written);
  try {
    const { rows } = await db.query<AppendRow>(
      'SELECT * FROM event_store.append_events($1, $2, $3::uuid[], $4::text[], $5::jsonb[], $6::jsonb[])',
      [stream, String(expected), ...eventColumns(written)],
    );
    return appendResult(rows[0]);
  } catch (error) {
    throw conflictOf(error, stream, expected);
  }
}
