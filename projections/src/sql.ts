import type { Database } from '@licensestore/shared/db';
import { type RawBuilder, sql, type Transaction } from 'kysely';

/** A table of a projector, in the schema it is being written to (`public`, or a rebuild's shadow schema). */
export const tableIn = (schema: string, table: string) => sql.table(`${schema}.${table}`);

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
