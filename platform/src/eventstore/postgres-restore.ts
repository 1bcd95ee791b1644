import { createHash } from 'node:crypto';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { RecordedEvent } from '@licensestore/domain/events';
import type pg from 'pg';
import { canonicalJson } from '../audit-export/hash-chain.js';
import { type CopyRow, copyData, copyInto } from '../copy-rows/index.js';
import { decodePosition } from './position.js';
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

/** Rows per buffer handed to COPY: the next is built while Postgres takes the one before. */
const ROWS_PER_CHUNK = 1000;
const EVENTS_PER_TRANSACTION = 20_000;

/**
 * Writes events, in the order given (the log order of the store they came from), into an empty Postgres log with
 * their ids, streams, revisions, types, data, metadata and recorded times, bypassing the append function: these are
 * facts already decided, and their revisions and times must stay what they were. Global positions are kept when
 * given. The log's order is (writer transaction, global position), so a transaction takes events only while their
 * positions rise: where the source committed a lower position after a higher one, the next transaction takes it, and
 * the restored log reads back in exactly the order given. Each row written goes into `written`, when given, for a
 * check of the log as it reads back (`rowReadBack`). Returns the number written.
 */
export async function writeRestoredEvents(
  pool: pg.Pool,
  events: AsyncIterable<RestoredEvent>,
  written?: RowDigest,
): Promise<number> {
  const writer = new RestoreWriter(pool, written);
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

const COLUMNS = ['stream_id', 'stream_revision', 'event_id', 'event_type', 'data', 'metadata', 'created_at'];

/** An event's fields as the restore writes them, in COPY's input text: data and metadata as JSON. */
const rowOf = (event: RestoredEvent): CopyRow => [
  ...(event.globalPosition === null ? [] : [event.globalPosition.toString()]),
  event.streamId,
  event.revision.toString(),
  event.id,
  event.type,
  JSON.stringify(event.data),
  JSON.stringify(event.metadata),
  event.createdAt.toISOString(),
];

/**
 * The same fields of an event as the log reads it back, data and metadata as canonical JSON (keys in order):
 * the form a backup's lines hold them in, so that events parsed from them and written read back as the rows
 * written, and a digest of one side equals the other's. Postgres hands jsonb back with its keys in an order of its
 * own, hence canonical JSON on this side. The global position is compared when the log came from Postgres.
 */
export const rowReadBack = (event: RecordedEvent, positions: boolean): CopyRow => [
  ...(positions ? [decodePosition(event.position)[1].toString()] : []),
  event.streamId,
  event.revision.toString(),
  event.id,
  event.type,
  canonicalJson(event.data),
  canonicalJson(event.metadata),
  event.createdAt.toISOString(),
];

/** A running SHA-256 over rows of events in log order, each field prefixed with its length. */
export class RowDigest {
  rows = 0;
  private readonly hash = createHash('sha256');

  add(row: CopyRow): void {
    for (const field of row) this.hash.update(`${field?.length ?? -1}:${field ?? ''}`);
    this.rows += 1;
  }

  get value(): string {
    return this.hash.copy().digest('hex');
  }
}

/**
 * Events streamed into the log with COPY, one COPY per transaction, each transaction's positions rising. COPY
 * writes the identity column when given it (as OVERRIDING SYSTEM VALUE does); without positions, the identity
 * numbers the rows in the order they come.
 */
class RestoreWriter {
  written = 0;
  private rows: CopyRow[] = [];
  private inTransaction = 0;
  private lastPosition: bigint | null = null;
  private keepsPositions: boolean | null = null;
  private client: pg.PoolClient | null = null;
  private copy: Writable | null = null;
  private failure: unknown = null;

  constructor(
    private readonly pool: pg.Pool,
    private readonly digest: RowDigest | undefined,
  ) {}

  async add(event: RestoredEvent): Promise<void> {
    const keeps = event.globalPosition !== null;
    const falls =
      event.globalPosition !== null &&
      this.lastPosition !== null &&
      event.globalPosition <= this.lastPosition;
    const otherColumns = this.keepsPositions !== null && keeps !== this.keepsPositions;
    if (falls || otherColumns || this.inTransaction + this.rows.length >= EVENTS_PER_TRANSACTION) {
      await this.commit();
    }
    this.keepsPositions = keeps;
    const row = rowOf(event);
    this.digest?.add(row);
    this.rows.push(row);
    if (event.globalPosition !== null) this.lastPosition = event.globalPosition;
    if (this.rows.length >= ROWS_PER_CHUNK) await this.send();
  }

  async commit(): Promise<void> {
    await this.send();
    if (!this.client || !this.copy) return;
    this.copy.end();
    await finished(this.copy);
    await this.client.query('COMMIT');
    this.release();
  }

  async rollback(): Promise<void> {
    if (!this.client) return;
    // Destroying the stream cancels the COPY; the transaction is then rolled back whole.
    this.copy?.destroy();
    await this.client.query('ROLLBACK').catch(() => {});
    this.release();
  }

  private release() {
    this.client?.release();
    this.client = null;
    this.copy = null;
    this.inTransaction = 0;
    this.lastPosition = null;
    this.keepsPositions = null;
  }

  private async send(): Promise<void> {
    if (this.rows.length === 0) return;
    if (!this.client || !this.copy) {
      this.client = await this.pool.connect();
      await this.client.query('BEGIN');
      const columns = this.keepsPositions ? ['global_position', ...COLUMNS] : COLUMNS;
      this.copy = copyInto(this.client, 'event_store', 'events', columns);
      // The server refuses a row at any time; the refusal is thrown at the next write or at the commit.
      this.copy.on('error', (error) => {
        this.failure ??= error;
      });
    }
    if (this.failure) throw this.failure;
    const data = copyData(this.rows);
    this.inTransaction += this.rows.length;
    this.written += this.rows.length;
    this.rows = [];
    if (!this.copy.write(data)) await once(this.copy, 'drain');
  }
}
