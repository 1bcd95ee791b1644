import type pg from 'pg';
import { notifyAppended } from './postgres.js';

/** An event as a backup holds it, to be written back into an empty Postgres log as it was recorded. */
export interface RestoredEvent {
  id: string;
  streamId: string;
  revision: bigint;
  type: string;
  data: unknown;
  metadata: unknown;
  createdAt: Date;
  /** Its global position in the Postgres store it came from; null when it came from another kind of store. */
  globalPosition: bigint | null;
}

/** Whether the Postgres event log holds no event at all (the schema must exist). */
export async function isEmptyPostgresLog(db: pg.Pool | pg.PoolClient): Promise<boolean> {
  const { rows } = await db.query<{ empty: boolean }>(
    'SELECT NOT EXISTS (SELECT 1 FROM event_store.events) AS empty',
  );
  return rows[0]?.empty ?? false;
}

const ROWS_PER_STATEMENT = 1000;
const EVENTS_PER_TRANSACTION = 20_000;

/**
 * Writes events, in the order given (the log order of the store they came from), into an empty Postgres log with
 * their ids, streams, revisions, types, data, metadata and recorded times, bypassing the append function: these are
 * facts already decided, and their revisions and times must stay what they were. Global positions are kept when
 * given. The log's order is (writer transaction, global position), so a transaction takes events only while their
 * positions rise: where the source committed a lower position after a higher one, the next transaction takes it, and
 * the restored log reads back in exactly the order given. Returns the number written.
 */
export async function writeRestoredEvents(
  pool: pg.Pool,
  events: AsyncIterable<RestoredEvent>,
): Promise<number> {
  const writer = new RestoreWriter(pool);
  try {
    for await (const event of events) await writer.add(event);
    await writer.commit();
  } catch (error) {
    await writer.rollback();
    throw error;
  }
  // The identity must hand out positions after the restored ones, or the next append would collide.
  await pool.query(
    `SELECT setval(pg_get_serial_sequence('event_store.events', 'global_position'),
                   coalesce((SELECT max(global_position) FROM event_store.events), 0) + 1, false)`,
  );
  await notifyAppended(pool);
  return writer.written;
}

/** Events gathered into multi-row statements, statements into transactions, each transaction's positions rising. */
class RestoreWriter {
  written = 0;
  private pending: RestoredEvent[] = [];
  private inTransaction = 0;
  private lastPosition: bigint | null = null;
  private client: pg.PoolClient | null = null;

  constructor(private readonly pool: pg.Pool) {}

  async add(event: RestoredEvent): Promise<void> {
    const falls =
      event.globalPosition !== null &&
      this.lastPosition !== null &&
      event.globalPosition <= this.lastPosition;
    if (falls || this.inTransaction + this.pending.length >= EVENTS_PER_TRANSACTION) await this.commit();
    this.pending.push(event);
    if (event.globalPosition !== null) this.lastPosition = event.globalPosition;
    if (this.pending.length >= ROWS_PER_STATEMENT) await this.flush();
  }

  async commit(): Promise<void> {
    await this.flush();
    if (!this.client) return;
    await this.client.query('COMMIT');
    this.release();
  }

  async rollback(): Promise<void> {
    if (!this.client) return;
    await this.client.query('ROLLBACK').catch(() => {});
    this.release();
  }

  private release() {
    this.client?.release();
    this.client = null;
    this.inTransaction = 0;
    this.lastPosition = null;
  }

  private async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    if (!this.client) {
      this.client = await this.pool.connect();
      await this.client.query('BEGIN');
    }
    await insertRows(this.client, this.pending);
    this.inTransaction += this.pending.length;
    this.written += this.pending.length;
    this.pending = [];
  }
}

async function insertRows(client: pg.PoolClient, events: readonly RestoredEvent[]): Promise<void> {
  const keepPositions = events.every((event) => event.globalPosition !== null);
  const columns = [
    events.map((event) => event.streamId),
    events.map((event) => event.revision.toString()),
    events.map((event) => event.id),
    events.map((event) => event.type),
    events.map((event) => JSON.stringify(event.data)),
    events.map((event) => JSON.stringify(event.metadata)),
    events.map((event) => event.createdAt.toISOString()),
  ];
  if (keepPositions) {
    await client.query(
      `INSERT INTO event_store.events
         (global_position, stream_id, stream_revision, event_id, event_type, data, metadata, created_at)
       OVERRIDING SYSTEM VALUE
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::uuid[], $5::text[], $6::jsonb[], $7::jsonb[],
                            $8::timestamptz[])`,
      [events.map((event) => String(event.globalPosition)), ...columns],
    );
    return;
  }
  // Without positions, the identity numbers them in the order given (unnest keeps it; ORDINALITY makes it explicit).
  await client.query(
    `INSERT INTO event_store.events (stream_id, stream_revision, event_id, event_type, data, metadata, created_at)
     SELECT s, r, i, t, d, m, c
       FROM unnest($1::text[], $2::bigint[], $3::uuid[], $4::text[], $5::jsonb[], $6::jsonb[], $7::timestamptz[])
            WITH ORDINALITY AS u(s, r, i, t, d, m, c, n)
      ORDER BY n`,
    columns,
  );
}
