import type { Position } from '@licensestore/domain/events';
import { openDatabase } from '@licensestore/platform/db';
import { encodePosition } from '@licensestore/platform/eventstore';
import { logHead } from '../../bench/support/log-head.js';
import { buildStore, FULL_ORDERS, scaledOrders } from '../../bench/support/scale-store.js';
import { recordProgress } from '../../workers/src/jobs/intents.js';

/** The workers' reactor, as the workers role names it. */
const REACTOR = 'workers';

/** The history `BENCH_SCALE` asks for, as `npm run bench:scale` reads it; null when it is unset. */
export function historyScale(): { orders: number; ofFull: number } | null {
  if (!process.env.BENCH_SCALE) return null;
  const orders = scaledOrders(1);
  return { orders, ofFull: orders / FULL_ORDERS };
}

/** What the generated history left in the store: its counts, its events, and where the log stood after it. */
export interface GeneratedHistory {
  orders: number;
  keysAdded: number;
  keysAssigned: number;
  refunds: number;
  events: number;
  /** The global position of the history's last event: the same in the source log and in a restored one. */
  lastGlobal: string;
}

/**
 * The year of business `npm run bench:scale` builds (the same generator, appended and projected the same way), for
 * startBenchStore's `prepare`. The history is written as decided and done (keys recorded, e-mails sent) but its
 * orders never had receipts issued, so the workers' reactor is settled at its end, with no job owed, as a store that
 * has lived that year would stand: the roles then react only to what comes after.
 */
export async function fillWithHistory(
  databaseUrl: string,
  licenseKeySecret: string,
  print: (line: string) => void,
): Promise<GeneratedHistory> {
  const { counts } = await buildStore(databaseUrl, licenseKeySecret, scaledOrders(1), print);
  const database = openDatabase(databaseUrl, { max: 1 });
  try {
    const head = await logHead(database.pool);
    if (!head) throw new Error('the generated history left the log empty');
    await settleReactorAt(database.pool, head);
    const { rows } = await database.pool.query<{ events: number }>(
      'SELECT count(*)::int AS events FROM event_store.events',
    );
    return {
      orders: counts.orders,
      keysAdded: counts.keysAdded,
      keysAssigned: counts.keysAssigned,
      refunds: counts.refunds,
      events: rows[0]?.events ?? 0,
      lastGlobal: head.split('/')[1] as string,
    };
  } finally {
    await database.close();
  }
}

/**
 * On a restored store, the reactor settled where the generated history ends (the restored log keeps each event's
 * global position): the history's jobs were never owed, and everything the drill did after it is reacted to again
 * as after any restore.
 */
export async function settleReactorAfterHistory(
  pool: import('pg').Pool,
  history: GeneratedHistory,
): Promise<Position> {
  const { rows } = await pool.query<{ transaction_id: string; global_position: string }>(
    `SELECT transaction_id::text, global_position::text FROM event_store.events
      WHERE global_position = $1::bigint`,
    [history.lastGlobal],
  );
  const last = rows[0];
  if (!last) throw new Error(`the restored log lacks the history's last event (${history.lastGlobal})`);
  const position = encodePosition(last.transaction_id, last.global_position);
  await settleReactorAt(pool, position);
  return position;
}

async function settleReactorAt(pool: import('pg').Pool, position: Position): Promise<void> {
  const session = await pool.connect();
  try {
    await recordProgress(session, REACTOR, position, []);
  } finally {
    session.release();
  }
}
