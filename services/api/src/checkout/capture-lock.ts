import type pg from 'pg';

/** Longest a capture waits for another capture of the same PayPal order (which is bounded by PayPal's timeouts). */
const LOCK_WAIT_MS = 60_000;

export interface CaptureLock {
  /** False when the lock was free at once; true when this caller waited for another holder to finish. */
  waited: boolean;
  release: () => Promise<void>;
}

const lockKey = (paypalOrderId: string) => `licensestore:capture:${paypalOrderId}`;

/**
 * A Postgres session advisory lock keyed by the PayPal order id, on a pooled client held only while the lock
 * is: captures of one PayPal order, in any process, take turns, and a turn that finds the checkout already
 * captured answers with that order instead of calling PayPal again. The lock lives and dies with the session,
 * so a crashed holder frees it. With `wait: false` it answers null at once when someone else holds it.
 */
export async function acquireCaptureLock(
  pool: pg.Pool,
  paypalOrderId: string,
  options: { wait: boolean },
): Promise<CaptureLock | null> {
  const key = lockKey(paypalOrderId);
  const client = await pool.connect();
  let waited = false;
  try {
    const { rows } = await client.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked',
      [key],
    );
    if (!rows[0]?.locked) {
      if (!options.wait) {
        client.release();
        return null;
      }
      waited = true;
      // One round trip: a multi-statement query runs as one implicit transaction, so SET LOCAL bounds this wait
      // only and the pooled session keeps its defaults, while the session lock outlives the statement.
      await client.query(
        `SET LOCAL lock_timeout = ${LOCK_WAIT_MS}; SELECT pg_advisory_lock(hashtextextended(${client.escapeLiteral(key)}, 0))`,
      );
    }
  } catch (error) {
    client.release(error as Error);
    throw error;
  }
  let released = false;
  return {
    waited,
    release: async () => {
      if (released) return;
      released = true;
      try {
        await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [key]);
        client.release();
      } catch (error) {
        // The session may still hold the lock: it must not go back to the pool.
        client.release(error as Error);
      }
    },
  };
}
