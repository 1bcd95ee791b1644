import type { Row, RowDifference, TableComparison } from '@licensestore/domain/audit-verify';
import type { Database } from '@licensestore/platform/db';
import { type RawBuilder, sql, type Transaction } from 'kysely';
import { tableIn } from '../sql.js';

interface Shape {
  key: string[];
  columns: string[];
}

async function shapeOf(trx: Transaction<Database>, schema: string, table: string): Promise<Shape> {
  const { rows } = await sql<{ name: string; key: boolean }>`
    SELECT a.attname AS name,
           EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = a.attrelid AND i.indisprimary
                                              AND a.attnum = ANY(i.indkey)) AS key
      FROM pg_attribute a
     WHERE a.attrelid = (quote_ident(${schema}) || '.' || quote_ident(${table}))::regclass
       AND a.attnum > 0 AND NOT a.attisdropped
     ORDER BY a.attnum`.execute(trx);
  return {
    key: rows.filter((row) => row.key).map((row) => row.name),
    columns: rows.filter((row) => !row.key).map((row) => row.name),
  };
}

/** Both tables must have the same key and columns (by name, in any order) for a row-by-row comparison to mean anything. */
async function sharedShape(trx: Transaction<Database>, live: string, shadow: string, table: string) {
  const replayed = await shapeOf(trx, shadow, table);
  const current = await shapeOf(trx, live, table);
  const describe = (shape: Shape) =>
    `key (${shape.key.join(', ')}), columns ${[...shape.columns].sort().join(', ')}`;
  if (describe(current) !== describe(replayed) || replayed.key.length === 0) {
    throw new Error(
      `live table ${table} has ${describe(current)}; the projector writes ${describe(replayed)}: a rebuild is due`,
    );
  }
  return replayed;
}

const ref = (alias: string, column: string) => sql.ref(`${alias}.${column}`);
const rowOf = (alias: string, columns: string[]) =>
  sql`(${sql.join(columns.map((column) => ref(alias, column)))})`;

/** A live-side row that exists, compared with its replayed twin over every non-key column. */
function differs(shape: Shape): RawBuilder<boolean> {
  if (shape.columns.length === 0) return sql<boolean>`false`;
  return sql<boolean>`${rowOf('l', shape.columns)} IS DISTINCT FROM ${rowOf('r', shape.columns)}`;
}

const joined = (liveSchema: string, shadowSchema: string, table: string, shape: Shape) => sql`
  ${tableIn(liveSchema, table)} AS l
  FULL OUTER JOIN ${tableIn(shadowSchema, table)} AS r
    ON ${sql.join(
      shape.key.map((column) => sql`${ref('l', column)} = ${ref('r', column)}`),
      sql` AND `,
    )}`;

/**
 * Compares a live table with its replayed twin in one set-based pass (a full outer join on the primary key,
 * every other column through IS DISTINCT FROM), so it scales with the tables without loading them into node;
 * then fetches up to `limit` of the differing rows, in key order.
 */
export async function compareTable(
  trx: Transaction<Database>,
  options: { projector: string; table: string; liveSchema: string; shadowSchema: string; limit: number },
): Promise<{ comparison: TableComparison; differences: RowDifference[] }> {
  const { projector, table, liveSchema, shadowSchema, limit } = options;
  const shape = await sharedShape(trx, liveSchema, shadowSchema, table);
  const [firstKey] = shape.key as [string];
  const liveHas = sql`${ref('l', firstKey)} IS NOT NULL`;
  const replayHas = sql`${ref('r', firstKey)} IS NOT NULL`;
  const { rows } = await sql<Omit<TableComparison, 'projector' | 'table'>>`
    SELECT count(${ref('l', firstKey)})::int AS "liveRows",
           count(${ref('r', firstKey)})::int AS "replayedRows",
           (count(*) FILTER (WHERE NOT ${liveHas}))::int AS missing,
           (count(*) FILTER (WHERE NOT ${replayHas}))::int AS extra,
           (count(*) FILTER (WHERE ${liveHas} AND ${replayHas} AND ${differs(shape)}))::int AS different
      FROM ${joined(liveSchema, shadowSchema, table, shape)}`.execute(trx);
  const comparison = { projector, table, ...(rows[0] as Omit<TableComparison, 'projector' | 'table'>) };
  const total = comparison.missing + comparison.extra + comparison.different;
  if (total === 0 || limit <= 0) return { comparison, differences: [] };

  const changed = shape.columns.map(
    (column) => sql`CASE WHEN ${ref('l', column)} IS DISTINCT FROM ${ref('r', column)} THEN ${column} END`,
  );
  const { rows: differing } = await sql<{ live: Row | null; replayed: Row | null; columns: string[] }>`
    SELECT CASE WHEN ${liveHas} THEN to_jsonb(l) END AS live,
           CASE WHEN ${replayHas} THEN to_jsonb(r) END AS replayed,
           array_remove(ARRAY[${changed.length > 0 ? sql.join(changed) : sql`NULL`}]::text[], NULL) AS columns
      FROM ${joined(liveSchema, shadowSchema, table, shape)}
     WHERE NOT ${liveHas} OR NOT ${replayHas} OR ${differs(shape)}
     ORDER BY ${sql.join(shape.key.map((column) => sql`coalesce(${ref('l', column)}, ${ref('r', column)})`))}
     LIMIT ${limit}`.execute(trx);
  const differences = differing.map((row): RowDifference => {
    const either = (row.live ?? row.replayed) as Row;
    return {
      projector,
      table,
      kind: row.live === null ? 'missing' : row.replayed === null ? 'extra' : 'different',
      key: Object.fromEntries(shape.key.map((column) => [column, either[column]])),
      columns: row.columns,
      live: row.live,
      replayed: row.replayed,
    };
  });
  return { comparison, differences };
}
