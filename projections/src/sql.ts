import type { Database } from '@licensestore/platform/db';
import { type RawBuilder, sql, type Transaction } from 'kysely';
import type { ApplyContext } from './projector.js';

/** A table of a projector, in the schema it is being written to (`public`, or a rebuild's shadow schema). */
export const tableIn = (schema: string, table: string) => sql.table(`${schema}.${table}`);

/** The pending list's cap, in kB, of every trigram index. */
const TRIGRAM_PENDING_LIST_KB = 256;

/**
 * A trigram index for the back office's searches. GIN queues new entries in a pending list that every search reads
 * whole until a write or vacuum merges it; at Postgres's default of 4 MB a busy customers table's name search took
 * 95 ms instead of 4. At 256 kB a search stays within a few milliseconds, while writes still merge in batches
 * (turning the list off made updating 3 % of 333,333 customers 5 times slower; 256 kB, 1.5 times).
 */
export const trigramIndex = (name: string, table: ReturnType<typeof tableIn>, column: string) =>
  sql`CREATE INDEX ${sql.id(name)} ON ${table} USING gin (${sql.id(column)} gin_trgm_ops)
    WITH (gin_pending_list_limit = ${sql.lit(TRIGRAM_PENDING_LIST_KB)})`;

/**
 * A timestamptz column as ISO 8601 text in UTC with microseconds (`2026-03-01T09:00:00.000000Z`): exact when
 * written back, and `Date.parse` reads it, whatever the session's DateStyle and TimeZone.
 */
export const isoText = (column: string): RawBuilder<string> =>
  sql<string>`to_char(${sql.ref(column)} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * One statement for the whole batch: whole rows, keyed by `key`, travel as one JSON parameter (no 65k
 * bind-parameter limit) and replace what is stored. `rows` must hold each key once (Postgres refuses to update
 * one row twice in a statement), and carry every column of the table.
 */
export async function upsertRows(
  trx: Transaction<Database>,
  schema: string,
  table: string,
  key: string,
  rows: readonly object[],
): Promise<void> {
  const [first] = rows;
  if (!first) return;
  const updates = Object.keys(first)
    .filter((column) => column !== key)
    .map((column) => sql`${sql.id(column)} = excluded.${sql.id(column)}`);
  await sql`
    INSERT INTO ${tableIn(schema, table)}
    SELECT * FROM json_populate_recordset(NULL::${tableIn(schema, table)}, ${JSON.stringify(rows)}::json)
    ON CONFLICT (${sql.id(key)}) DO UPDATE SET ${sql.join(updates)}`.execute(trx);
}

/** Rows that never change, keyed by `key`: values in the order of `columns`, those of the `json` column as JSON text. */
export interface Facts {
  table: string;
  key: readonly string[];
  columns: readonly string[];
  /** The jsonb column among `columns`, if the table has one. */
  json?: string;
  rows: ReadonlyArray<ReadonlyArray<string | null>>;
}

/** Writes facts where `context` says: streamed in with COPY where it can, otherwise inserted, skipping those stored. */
export async function writeFacts(
  trx: Transaction<Database>,
  context: ApplyContext,
  facts: Facts,
): Promise<void> {
  if (facts.rows.length === 0) return;
  if (context.copy) await context.copy(context.schema, facts.table, facts.columns, facts.rows);
  else await insertFacts(trx, context.schema, facts);
}

/**
 * One statement for the batch: the rows without the jsonb column travel as one JSON array of objects, that
 * column's values as a JSON array of their own, joined to them by place. Apart, each value is parsed once, straight
 * into jsonb; inside its row Postgres would copy it out as text and parse it a second time, which costs more than
 * the rest of the row.
 */
async function insertFacts(trx: Transaction<Database>, schema: string, facts: Facts): Promise<void> {
  const { table, key, columns, json, rows } = facts;
  const target = tableIn(schema, table);
  const jsonAt = json === undefined ? -1 : columns.indexOf(json);
  const plain = columns.filter((_, at) => at !== jsonAt);
  const objects = rows.map((row) =>
    Object.fromEntries(columns.flatMap((column, at) => (at === jsonAt ? [] : [[column, row[at]]]))),
  );
  const values = sql`json_populate_recordset(NULL::${target}, ${JSON.stringify(objects)}::json) WITH ORDINALITY AS r`;
  const conflict = sql`ON CONFLICT (${sql.join(key.map((column) => sql.id(column)))}) DO NOTHING`;
  const selected = sql.join(plain.map((column) => sql.ref(`r.${column}`)));
  if (json === undefined) {
    await sql`
      INSERT INTO ${target} (${sql.join(plain.map((column) => sql.id(column)))})
      SELECT ${selected} FROM ${values} ${conflict}`.execute(trx);
    return;
  }
  await sql`
    INSERT INTO ${target} (${sql.join([...plain, json].map((column) => sql.id(column)))})
    SELECT ${selected}, j.value::jsonb
      FROM ${values}
      JOIN json_array_elements(${`[${rows.map((row) => row[jsonAt]).join(',')}]`}::json) WITH ORDINALITY AS j
        USING (ordinality)
    ${conflict}`.execute(trx);
}
