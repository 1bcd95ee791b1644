import type { Database } from '@licensestore/shared/db';
import { type RawBuilder, sql, type Transaction } from 'kysely';

/** A table of a projector, in the schema it is being written to (`public`, or a rebuild's shadow schema). */
export const tableIn = (schema: string, table: string) => sql.table(`${schema}.${table}`);

/** The pending list's cap, in kB, of every trigram index (the migration that set it on existing ones keeps its own). */
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

/**
 * One statement that inserts a batch of rows that never change, skipping those already stored (by the conflict
 * target `key`): `rows` is a JSON array of the rows without `jsonColumn`, holding `columns`; `json` is a JSON array
 * of that jsonb column's values, in the same order. Apart, each value is parsed once, straight into jsonb; inside its
 * row Postgres would copy it out as text and parse it a second time, which costs more than the rest of the row.
 */
export async function insertFactsWithJson(
  trx: Transaction<Database>,
  schema: string,
  table: string,
  options: {
    key: readonly string[];
    columns: readonly string[];
    jsonColumn: string;
    rows: string;
    json: string;
  },
): Promise<void> {
  const { key, columns, jsonColumn, rows, json } = options;
  const target = tableIn(schema, table);
  await sql`
    INSERT INTO ${target} (${sql.join([...columns, jsonColumn].map((column) => sql.id(column)))})
    SELECT ${sql.join(columns.map((column) => sql.ref(`r.${column}`)))}, j.value::jsonb
      FROM json_populate_recordset(NULL::${target}, ${rows}::json) WITH ORDINALITY AS r
      JOIN json_array_elements(${json}::json) WITH ORDINALITY AS j USING (ordinality)
    ON CONFLICT (${sql.join(key.map((column) => sql.id(column)))}) DO NOTHING`.execute(trx);
}
