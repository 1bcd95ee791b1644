import type { DatabaseHandle } from '@licensestore/platform/db';
import { listeningApplicationName } from '@licensestore/platform/listen';
import { PROJECTION_CHECKPOINT_CHANNEL } from '@licensestore/platform/readmodel';

/** Connections of this database listening on the checkpoint channel now (they carry its name while they do). */
export async function listeningConnections(database: DatabaseHandle): Promise<number> {
  const { rows } = await database.pool.query<{ count: string }>(
    `SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1`,
    [listeningApplicationName(PROJECTION_CHECKPOINT_CHANNEL)],
  );
  return Number(rows[0]?.count);
}
