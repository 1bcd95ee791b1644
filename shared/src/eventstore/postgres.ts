import { randomUUID } from 'node:crypto';
import type pg from 'pg';
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

const toRecorded = (row: EventRow): RecordedEvent => ({
  id: row.event_id,
  streamId: row.stream_id,
  revision: BigInt(row.stream_revision),
  type: row.event_type,
  data: row.data,
  metadata: eventMetadataSchema.parse(row.metadata),
  position: encodePosition(row.transaction_id, row.global_position),
  createdAt: row.created_at,
});

/**
 * Event store on one Postgres table. The global order is (writer transaction id, position), read only below
 * the oldest running transaction, so an event whose transaction commits late is never skipped
 * (see docs/decisions/002-postgres-event-store.md).
 */
export class PostgresEventStore implements EventStore {
  private readonly notifier: AppendNotifier;

  constructor(private readonly pool: pg.Pool) {
    this.notifier = new AppendNotifier(pool);
  }

  async append(stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    const result = await appendWith(this.pool, stream, events, expected);
    this.notifier.poke();
    return result;
  }

  async *readStream(stream: string): AsyncIterable<RecordedEvent> {
    let from = 0n;
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

  async readAll(after: Position | null, limit: number): Promise<RecordedEvent[]> {
    const [transactionId, position] = after ? decodePosition(after) : [0n, 0n];
    const { rows } = await this.pool.query<EventRow>(
      `SELECT ${COLUMNS} FROM event_store.events
        WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())
          AND (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
        ORDER BY events.transaction_id, events.global_position
        LIMIT $3`,
      [transactionId.toString(), position.toString(), limit],
    );
    return rows.map(toRecorded);
  }

  async *subscribeAll(after: Position | null, signal: AbortSignal): AsyncIterable<RecordedEvent> {
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

  private async listen(signal: AbortSignal) {
    const client = await this.pool.connect();
    let notified = false;
    let failure: Error | null = null;
    let wake: (() => void) | null = null;
    const onNotify = () => {
      notified = true;
      wake?.();
    };
    // A checked-out client that loses its connection emits 'error'; unhandled, that would crash the process.
    const onError = (error: Error) => {
      failure = error;
      wake?.();
    };
    const onAbort = () => wake?.();
    client.on('notification', onNotify);
    client.on('error', onError);
    try {
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      client.off('notification', onNotify);
      client.off('error', onError);
      client.release(error as Error);
      throw error;
    }
    signal.addEventListener('abort', onAbort);
    return {
      reset: () => {
        notified = false;
      },
      throwIfFailed: () => {
        if (failure) throw failure;
      },
      wait: (timeoutMs: number) =>
        new Promise<void>((resolve) => {
          if (notified || failure || signal.aborted) return resolve();
          const timer = setTimeout(() => done(), timeoutMs);
          const done = () => {
            clearTimeout(timer);
            wake = null;
            resolve();
          };
          wake = done;
        }),
      close: async () => {
        signal.removeEventListener('abort', onAbort);
        client.off('notification', onNotify);
        if (!failure) {
          try {
            await client.query(`UNLISTEN ${CHANNEL}`);
          } catch (error) {
            failure = error as Error;
          }
        }
        client.off('error', onError);
        client.release(failure ?? undefined);
      },
    };
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
  try {
    const { rows } = await db.query<{
      next_revision: string;
      transaction_id: string;
      global_position: string;
    }>('SELECT * FROM event_store.append_events($1, $2, $3::uuid[], $4::text[], $5::jsonb[], $6::jsonb[])', [
      stream,
      String(expected),
      events.map((event) => event.id ?? randomUUID()),
      events.map((event) => event.type),
      events.map((event) => JSON.stringify(event.data)),
      events.map((event) => JSON.stringify(event.metadata)),
    ]);
    const row = rows[0];
    if (!row) throw new Error('append returned no row');
    return {
      nextExpectedRevision: BigInt(row.next_revision),
      position: encodePosition(row.transaction_id, row.global_position),
    };
  } catch (error) {
    if ((error as { code?: string }).code === CONFLICT) {
      const actual = (error as Error).message;
      throw new WrongExpectedRevisionError(
        stream,
        expected,
        actual === 'no_stream' ? 'no_stream' : BigInt(actual),
      );
    }
    throw error;
  }
}
