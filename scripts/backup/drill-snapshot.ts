import { createHash } from 'node:crypto';
import { type EventStore, type Position, recordedOrThrow } from '@licensestore/domain/events';
import { HashChain } from '@licensestore/platform/audit-export';
import type pg from 'pg';
import { allProjectors } from '../../projections/src/projectors.js';
import { findReceipt } from '../../services/api/src/receipts/receipt.js';
import { backupRecord, KEPT_TABLES } from './format.js';

/** One line of the drill's report. */
export interface Check {
  name: string;
  passed: boolean;
  /** What was compared when it passed; what differs when it did not. */
  detail: string;
}

/** Every read-model table, as the projectors own them. */
export const READ_MODEL_TABLES = allProjectors.flatMap((projector) => projector.tables);

/** A table's rows as JSON text by their primary key (as JSON text too). */
type Rows = Map<string, string>;

/** What a store held at one moment, in the form the drill compares: what was there before, and after a restore. */
export interface StoreSnapshot {
  readModels: Map<string, Rows>;
  kept: Map<string, Rows>;
  /** Every order's receipt as the receipt PDF shows it (read from the order's stream), or `not issued`. */
  receipts: Map<string, string>;
}

async function primaryKey(pool: pg.Pool, table: string): Promise<string[]> {
  const { rows } = await pool.query<{ name: string }>(
    `SELECT a.attname AS name
       FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
      WHERE i.indrelid = $1::regclass AND i.indisprimary
      ORDER BY array_position(i.indkey, a.attnum)`,
    [`public.${table}`],
  );
  if (rows.length === 0) throw new Error(`table ${table} has no primary key to compare its rows by`);
  return rows.map((row) => row.name);
}

/** Rows read from a table's cursor at a time, so that a table of millions never sits in memory as one answer. */
const FETCH_ROWS = 10_000;

/**
 * How a snapshot keeps each row: its JSON text (a changed row's report names the columns that differ), or the
 * SHA-256 of that text, for stores whose rows would not fit in memory twice over (a changed row's report then names
 * its key only). Either way every row of every table is read and compared by its key, so a row missing, extra or
 * changed anywhere is found.
 */
export type RowsAs = 'text' | 'digest';

/**
 * Every row of a table, every column, ordered by its primary key, read through a cursor. No column is left out: the
 * projectors write no wall-clock time (every time in a read model comes from an event), so a rebuild from the same
 * log must give back the very same rows.
 */
async function rowsOf(pool: pg.Pool, table: string, translate: Translate, rowsAs: RowsAs): Promise<Rows> {
  const key = await primaryKey(pool, table);
  const keyJson = `jsonb_build_array(${key.map((column) => `t.${column}`).join(', ')})`;
  const kept = rowsAs === 'text' ? (row: string) => row : (row: string) => sha256(row);
  const rows: Rows = new Map();
  const session = await pool.connect();
  try {
    await session.query('BEGIN READ ONLY');
    await session.query(
      `DECLARE drill_rows NO SCROLL CURSOR FOR
         SELECT ${keyJson}::text AS key, to_jsonb(t)::text AS row FROM ${table} t
          ORDER BY ${key.map((column) => `t.${column}`).join(', ')}`,
    );
    for (;;) {
      const batch = await session.query<{ key: string; row: string }>(`FETCH ${FETCH_ROWS} FROM drill_rows`);
      for (const row of batch.rows) rows.set(translate(row.key), kept(translate(row.row)));
      if (batch.rows.length < FETCH_ROWS) break;
    }
    await session.query('COMMIT');
  } catch (error) {
    await session.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    session.release();
  }
  return rows;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64');

/** Rewrites the log positions in a text; the identity when no position needs rewriting. */
export type Translate = (text: string) => string;

/** A Postgres log position as the log, the read models and the backups write it: writer transaction, global position. */
const POSITION = /(\d{20})\/(\d{20})/g;

/**
 * Positions of a restored log written as the source log wrote them. A restore keeps every event's global position
 * but writes the events in transactions of its own (a transaction id means nothing in another cluster), so the first
 * half of every position differs, in the log and in each read-model row that names one. The global position names
 * the same event in both logs: it maps back to the source's whole position, and one the source never had stays as
 * it is, and so differs.
 */
export function asSourcePositions(sourcePositions: readonly Position[]): Translate {
  const byGlobal = new Map(sourcePositions.map((position) => [position.split('/')[1] as string, position]));
  return (text) =>
    text.replace(POSITION, (position, _transaction, global: string) => byGlobal.get(global) ?? position);
}

const asIs: Translate = (text) => text;

/** Orders whose receipts are read from their streams at once. */
const RECEIPT_READERS = 4;

export async function takeSnapshot(
  pool: pg.Pool,
  eventStore: EventStore,
  translate: Translate = asIs,
  rowsAs: RowsAs = 'text',
): Promise<StoreSnapshot> {
  const readModels = new Map<string, Rows>();
  for (const table of READ_MODEL_TABLES) readModels.set(table, await rowsOf(pool, table, translate, rowsAs));
  const kept = new Map<string, Rows>();
  for (const table of KEPT_TABLES) kept.set(table, await rowsOf(pool, table, translate, rowsAs));
  const receipts = new Map<string, string>();
  const { rows: orders } = await pool.query<{ id: string }>('SELECT id FROM orders ORDER BY id');
  let next = 0;
  await Promise.all(
    Array.from({ length: RECEIPT_READERS }, async () => {
      for (let i = next++; i < orders.length; i = next++) {
        const { id } = orders[i] as { id: string };
        const found = await findReceipt(eventStore, id);
        // A receipt's status is kept as it is: the check counts the issued ones by it.
        receipts.set(
          id,
          found.status !== 'issued'
            ? found.status
            : rowsAs === 'text'
              ? JSON.stringify(found.receipt)
              : `issued ${sha256(JSON.stringify(found.receipt))}`,
        );
      }
    }),
  );
  return { readModels, kept, receipts };
}

/** Rows before and after, by key: how many went missing, appeared or changed, and the first that did, by key. */
function compareRows(before: Rows, after: Rows): string | null {
  const missing = [...before.keys()].filter((key) => !after.has(key));
  const extra = [...after.keys()].filter((key) => !before.has(key));
  const changed = [...before.keys()].filter((key) => after.has(key) && after.get(key) !== before.get(key));
  if (missing.length + extra.length + changed.length === 0) return null;
  const parts = [
    missing.length > 0 ? `${missing.length} missing (first ${missing[0]})` : '',
    extra.length > 0 ? `${extra.length} extra (first ${extra[0]})` : '',
    changed.length > 0
      ? `${changed.length} changed (first ${changed[0]}: ${changedColumns(before, after, changed[0] as string)})`
      : '',
  ];
  return parts.filter(Boolean).join(', ');
}

function changedColumns(before: Rows, after: Rows, key: string): string {
  if (!before.get(key)?.startsWith('{')) return 'its digest differs';
  const was = JSON.parse(before.get(key) as string) as Record<string, unknown>;
  const is = JSON.parse(after.get(key) as string) as Record<string, unknown>;
  const columns = [...new Set([...Object.keys(was), ...Object.keys(is)])].filter(
    (column) => JSON.stringify(was[column]) !== JSON.stringify(is[column]),
  );
  return columns
    .map((column) => `${column} ${JSON.stringify(was[column])} → ${JSON.stringify(is[column])}`)
    .join('; ');
}

/** One check per read-model table, one per kept table, and one over every receipt. */
export function compareSnapshots(before: StoreSnapshot, after: StoreSnapshot): Check[] {
  const tables = (kind: string, was: Map<string, Rows>, is: Map<string, Rows>) =>
    [...was.keys()].map((table): Check => {
      const rows = was.get(table) as Rows;
      const difference = compareRows(rows, is.get(table) ?? new Map());
      return {
        name: `${kind} ${table}`,
        passed: difference === null,
        detail: difference ?? `${rows.size} rows equal`,
      };
    });
  const issued = [...before.receipts.values()].filter(
    (receipt) => receipt.startsWith('{') || receipt.startsWith('issued '),
  ).length;
  const receipts = compareRows(before.receipts, after.receipts);
  return [
    ...tables('read model', before.readModels, after.readModels),
    ...tables('kept table', before.kept, after.kept),
    {
      name: 'receipts',
      passed: receipts === null,
      detail:
        receipts ??
        `${issued} receipts equal (numbers, lines, totals, refunds), ${before.receipts.size - issued} orders without one`,
    },
  ];
}

/**
 * The backup's hash chain recomputed over a log (read with the bare store, events as recorded), from the full
 * backup's genesis, each event's position written by `translate`: its head is the last part's head exactly when the
 * log holds every event, field for field, in the order the backups took them. Also the log's positions, in order.
 */
export async function chainOver(
  store: EventStore,
  genesis: string,
  translate: Translate = asIs,
): Promise<{ head: string; count: number; positions: Position[] }> {
  const chain = new HashChain(genesis);
  const positions: Position[] = [];
  for (;;) {
    const batch = await store.readAll(positions.at(-1) ?? null, 2000);
    for (const entry of batch) {
      const event = recordedOrThrow(entry);
      positions.push(event.position);
      chain.link({ seq: chain.count + 1, ...backupRecord(event), position: translate(event.position) });
    }
    if (batch.length < 2000) return { head: chain.head, count: chain.count, positions };
  }
}
