import pg from 'pg';
import type { Logger } from '../logging/index.js';

export interface LeaderLockOptions {
  /** The session's database, for the connection that cancels its wait. */
  databaseUrl: string;
  /** Aborting gives up the wait in line. */
  stopping: AbortSignal;
  /** Runs when another session holds the lock, just before this one waits in line for it. */
  onStandby: () => void;
  logger: Logger;
}

/**
 * Makes `session` the holder of the advisory lock `name`, the way one instance of a role is active and the others
 * wait as hot standbys: at once when no session holds it, else queued in Postgres until the holder's session ends.
 * The lock is the session's until that session ends. True once held; false when `stopping` aborts first.
 */
export async function takeLeaderLock(
  session: pg.Client,
  name: string,
  options: LeaderLockOptions,
): Promise<boolean> {
  const { stopping } = options;
  // A standby whose process dies leaves its backend queued on the lock; this lets Postgres notice and drop it.
  await session.query(`SET client_connection_check_interval = '1s'`);
  const { rows } = await session.query<{ held: boolean; pid: number }>(
    'SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS held, pg_backend_pid() AS pid',
    [name],
  );
  const [tried] = rows;
  if (tried?.held) return !stopping.aborted;
  if (stopping.aborted) return false;
  options.onStandby();
  const giveUp = () => void cancelWait(session, tried?.pid, name, options);
  stopping.addEventListener('abort', giveUp, { once: true });
  try {
    await session.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [name]);
    return !stopping.aborted;
  } catch (error) {
    if (stopping.aborted) return false;
    throw error;
  } finally {
    stopping.removeEventListener('abort', giveUp);
  }
}

/**
 * A backend blocked in pg_advisory_lock only notices a cancel, which must come from another connection (the session
 * is busy waiting); closing the session's socket alone would leave it queued. The session is ended after.
 */
async function cancelWait(
  session: pg.Client,
  pid: number | undefined,
  name: string,
  { databaseUrl, logger }: LeaderLockOptions,
): Promise<void> {
  const canceller = new pg.Client({ connectionString: databaseUrl });
  canceller.on('error', () => {});
  try {
    await canceller.connect();
    await canceller.query('SELECT pg_cancel_backend($1)', [pid]);
  } catch (error) {
    logger.warn({ lock: name, err: error }, 'could not cancel the wait for the lock');
  } finally {
    await canceller.end().catch(() => {});
  }
  await session.end().catch(() => {});
}
