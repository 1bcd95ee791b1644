import type { Position } from '@licensestore/domain/events';
import { encodePosition } from '@licensestore/platform/eventstore';
import type pg from 'pg';

/**
 * The position of the log's last event, or null when it is empty. The log is ordered by its xid8 column: ordered by
 * the text a query renders of it, transaction 994 sorts after transaction 2881.
 */
export async function logHead(pool: pg.Pool): Promise<Position | null> {
  const { rows } = await pool.query<{ transaction_id: string; global_position: string }>(
    `SELECT transaction_id::text, global_position::text FROM event_store.events
      ORDER BY events.transaction_id DESC, events.global_position DESC LIMIT 1`,
  );
  const last = rows[0];
  return last ? encodePosition(last.transaction_id, last.global_position) : null;
}
