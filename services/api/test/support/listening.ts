import type { DatabaseHandle } from '@licensestore/shared/db';

/** Connections of this database whose last statement was our LISTEN (still listening, not UNLISTENed). */
export async function listeningConnections(database: DatabaseHandle): Promise<number> {
  const { rows } = await database.pool.query<{ count: string }>(
    `SELECT count(*) FROM pg_stat_activity
      WHERE datname = current_database() AND query = 'LISTEN projection_checkpoint'`,
  );
  return Number(rows[0]?.count);
}
