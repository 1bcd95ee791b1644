import type { RecordedEvent } from '@licensestore/domain/events';
import type { Database } from '@licensestore/platform/db';
import type { Logger } from '@licensestore/platform/logging';
import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
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
  /**
   * Bump when the rows it writes or the tables it makes change: the runner then rebuilds its tables from zero, and
   * the new definition with them.
   */
  readonly version: number;
  /** The tables it owns, swapped together after a rebuild. */
  readonly tables: readonly string[];
  /**
   * Creates empty tables in `schema`, which exists, with their keys and the indexes `apply` itself reads by: the one
   * definition of those tables, for the live model, a rebuild's shadow and a verification's alike.
   */
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

/** A projector's tables as the live model has them: its own indexes and the readers'. */
export async function createProjectorTables(db: Kysely<Database>, projector: Projector, schema: string) {
  await projector.createTables(db, schema);
  await createReaderIndexes(db, projector, schema);
}

export async function createReaderIndexes(db: Kysely<Database>, projector: Projector, schema: string) {
  for (const index of projector.readerIndexes?.(schema) ?? []) await index.execute(db);
}

/**
 * Makes in `public` the tables of each projector that has none there yet (a new store, a new projector), from its
 * definition, the only one there is. Tables that exist are left as they are, even when the definition has changed
 * since: its version changed with it, and the runner rebuilds them from the log and swaps the new ones in. Under a
 * lock, so that two processes starting at once do not both make them.
 */
export async function createMissingTables(
  db: Kysely<Database>,
  projectors: readonly Projector[],
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtextextended('licensestore:read-tables', 0))`.execute(trx);
    for (const projector of projectors) {
      const { rows } = await sql`
        SELECT FROM pg_tables WHERE schemaname = 'public' AND tablename = ANY(${projector.tables}::text[])`.execute(
        trx,
      );
      if (rows.length === 0) await createProjectorTables(trx, projector, 'public');
    }
  });
}
