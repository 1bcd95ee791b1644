import { openDatabase } from '@licensestore/platform/db';

/**
 * What a database's server has done so far, from its cumulative statistics: the WAL it wrote (and how many of its
 * records were whole pages, written on a page's first change after a checkpoint), the blocks its relations read from
 * outside shared buffers and found in them, and autovacuum's runs. Backends report their statistics when idle, at
 * most once a second, so a snapshot taken right after some work can miss its last part, which the next one counts.
 */
export interface DatabaseActivity {
  walBytes: number;
  walFullPages: number;
  blocksRead: number;
  blocksHit: number;
  /** Blocks read from outside shared buffers, by table or index (schema-qualified outside `public`). */
  readsByRelation: Map<string, number>;
  autovacuumRuns: number;
}

const OWN_SCHEMAS = "schemaname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')";
const qualified = (schema: string, name: string) => (schema === 'public' ? name : `${schema}.${name}`);

export async function databaseActivity(databaseUrl: string): Promise<DatabaseActivity> {
  const database = openDatabase(databaseUrl, { max: 1 });
  try {
    const query = async <Row extends object>(text: string) => (await database.pool.query<Row>(text)).rows;
    const [wal] = await query<{ bytes: number; full_pages: number }>(
      'SELECT wal_bytes::float8 AS bytes, wal_fpi::float8 AS full_pages FROM pg_stat_wal',
    );
    const [blocks] = await query<{ read: number; hit: number }>(
      'SELECT blks_read::float8 AS read, blks_hit::float8 AS hit FROM pg_stat_database WHERE datname = current_database()',
    );
    const relations = await query<{ schema: string; name: string; reads: number }>(
      `SELECT schemaname AS schema, relname AS name,
              (coalesce(heap_blks_read, 0) + coalesce(toast_blks_read, 0) + coalesce(tidx_blks_read, 0))::float8 AS reads
         FROM pg_statio_all_tables WHERE ${OWN_SCHEMAS}
       UNION ALL
       SELECT schemaname, indexrelname, coalesce(idx_blks_read, 0)::float8
         FROM pg_statio_all_indexes WHERE ${OWN_SCHEMAS}`,
    );
    const [vacuums] = await query<{ runs: number }>(
      'SELECT coalesce(sum(autovacuum_count + autoanalyze_count), 0)::int AS runs FROM pg_stat_all_tables',
    );
    return {
      walBytes: wal?.bytes ?? 0,
      walFullPages: wal?.full_pages ?? 0,
      blocksRead: blocks?.read ?? 0,
      blocksHit: blocks?.hit ?? 0,
      readsByRelation: new Map(relations.map((row) => [qualified(row.schema, row.name), row.reads])),
      autovacuumRuns: vacuums?.runs ?? 0,
    };
  } finally {
    await database.close();
  }
}

/** The activity between two snapshots, added to `total` (a sum over several stretches of work). */
export function addActivity(total: DatabaseActivity, before: DatabaseActivity, after: DatabaseActivity) {
  total.walBytes += after.walBytes - before.walBytes;
  total.walFullPages += after.walFullPages - before.walFullPages;
  total.blocksRead += after.blocksRead - before.blocksRead;
  total.blocksHit += after.blocksHit - before.blocksHit;
  total.autovacuumRuns += after.autovacuumRuns - before.autovacuumRuns;
  for (const [relation, reads] of after.readsByRelation) {
    const added = reads - (before.readsByRelation.get(relation) ?? 0);
    total.readsByRelation.set(relation, (total.readsByRelation.get(relation) ?? 0) + added);
  }
}

export const noActivity = (): DatabaseActivity => ({
  walBytes: 0,
  walFullPages: 0,
  blocksRead: 0,
  blocksHit: 0,
  readsByRelation: new Map(),
  autovacuumRuns: 0,
});
