import type pg from 'pg';

/** Longest a capture waits for another capture of the same PayPal order (which is bounded by PayPal's timeouts). */
const LOCK_WAIT_MS = 60_000;

/**
 * Runs `work` while holding a Postgres session advisory lock keyed by the PayPal order id, on a pooled client
 * of its own that is held only for the duration. Captures of one PayPal order, in any process, take turns; a
 * turn that finds the checkout already captured then answers with that order instead of calling PayPal again.
 * The lock lives and dies with the session, so a crashed holder frees it.
 */
export async function withCaptureLock<T>(
  pool: pg.Pool,
  paypalOrderId: string,
  work: () => Promise<T>,
): Promise<T> {
  const key = `licensestore:capture:${paypalOrderId}`;
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    // One round trip: a multi-statement query runs as one implicit transaction, so SET LOCAL bounds this wait
    // only and the pooled session keeps its defaults, while the session lock outlives the statement.
    await client.query(
      `SET LOCAL lock_timeout = ${LOCK_WAIT_MS}; SELECT pg_advisory_lock(hashtextextended(${client.escapeLiteral(key)}, 0))`,
    );
  } catch (error) {
    client.release();
    throw error;
  }
  try {
    return await work();
  } finally {
    try {
      await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [key]);
    } catch (error) {
      // The session may still hold the lock: it must not go back to the pool.
      broken = error as Error;
    }
    client.release(broken);
  }
}
