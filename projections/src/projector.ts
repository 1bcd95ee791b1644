import type { Database } from '@licensestore/shared/db';
import type { RecordedEvent } from '@licensestore/shared/eventstore';
import type { Logger } from '@licensestore/shared/logging';
import type { Kysely, RawBuilder, Transaction } from 'kysely';
import type { CopyRows } from './copy-rows.js';

/**
 * A stream whose events made a row; `mentioning` narrows a stream many rows share (a product's key inventory) to
 * the events whose data names the row.
 */
export interface RowSource {
  stream: string;
  mentioning?: string;
}

/**
 * The streams behind a row of one table, from the row's values (live or replayed): what an audit shows beside a
 * row that differs. A row keyed by something other than a stream id (a customer's e-mail) may look up the live
 * tables. `whole-log` marks a row that is an aggregate of every event (a counter), with no stream of its own.
 */
export type RowSources = (
  row: Readonly<Record<string, unknown>>,
  db: Kysely<Database>,
) => RowSource[] | 'whole-log' | Promise<RowSource[]>;

export interface ApplyContext {
  /** Where the projector's tables are: `public` when live, a shadow schema during a rebuild. */
  schema: string;
  log: Logger;
  /**
   * Given where the tables are filled from the start of the log (a rebuild's or a verification's shadow), to stream
   * rows that never change in with COPY, which costs Postgres about a third of an insert (`writeFacts`). A live
   * batch is tens of rows, where that saves nothing worth losing the insert that skips a row already stored.
   */
  copy?: CopyRows;
}

/**
 * Turns events into rows of the tables it owns. `apply` receives a batch in log order inside the transaction
 * that also moves its checkpoint; it must never throw on a recorded event (bad data is logged and skipped),
 * only on infrastructure failure, which rolls the batch back for a retry.
 */
export interface Projector {
  readonly name: string;
  /** Bump when the rows it writes change shape or meaning: the runner then rebuilds its tables from zero. */
  readonly version: number;
  /** The tables it owns, swapped together after a rebuild. */
  readonly tables: readonly string[];
  /** Creates empty tables in `schema`, which exists, with their keys and the indexes `apply` itself reads by. */
  createTables(db: Kysely<Database>, schema: string): Promise<void>;
  /**
   * The indexes only the read side uses (the back office's sorts and searches, the audit's filters). A rebuild
   * builds them once it has caught up, one sorted pass each, instead of keeping them up row by row through the
   * whole log; a verification's shadow, read by nothing but the comparison, goes without them.
   */
  readonly readerIndexes?: (schema: string) => readonly RawBuilder<unknown>[];
  /** For each table, the streams behind one of its rows (without them, an audit reports a mismatch bare). */
  readonly sources?: Readonly<Record<string, RowSources>>;
  apply(trx: Transaction<Database>, events: readonly RecordedEvent[], context: ApplyContext): Promise<void>;
}

/** A projector's tables as the migrations make them for the live model: its own indexes and the readers'. */
export async function createProjectorTables(db: Kysely<Database>, projector: Projector, schema: string) {
  await projector.createTables(db, schema);
  await createReaderIndexes(db, projector, schema);
}

export async function createReaderIndexes(db: Kysely<Database>, projector: Projector, schema: string) {
  for (const index of projector.readerIndexes?.(schema) ?? []) await index.execute(db);
}
