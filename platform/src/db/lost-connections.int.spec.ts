import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/support/database.js';
import { type DatabaseHandle, openDatabase } from './index.js';

/** Ends a server session as a Postgres restart or an administrator does (FATAL 57P01 on that connection). */
async function terminate(database: DatabaseHandle, pid: number) {
  await sql`SELECT pg_terminate_backend(${pid})`.execute(database.db);
}

/** The next `event` of `emitter` (events.once would reject on the 'error' these tests expect to be emitted first). */
const next = (emitter: { once: (event: string, listener: () => void) => unknown }, event: string) =>
  new Promise<void>((resolve) => emitter.once(event, () => resolve()));

const pidOf = async (client: { query: DatabaseHandle['pool']['query'] }) =>
  ((await client.query('SELECT pg_backend_pid() AS pid')).rows[0] as { pid: number }).pid;

describe('A pool whose server closes its connections', () => {
  let database: DatabaseHandle;
  let admin: DatabaseHandle;
  const uncaught: unknown[] = [];
  const record = (error: unknown) => uncaught.push(error);

  beforeAll(async () => {
    const url = await createTestDatabase();
    database = openDatabase(url, { max: 2 });
    admin = openDatabase(url, { max: 1 });
    process.on('uncaughtException', record);
  });
  afterAll(async () => {
    process.off('uncaughtException', record);
    await database?.close();
    await admin?.close();
  });

  it('keeps the process up when an idle connection dies, and the next query opens another', async () => {
    const idle = await database.pool.connect();
    const pid = await pidOf(idle);
    idle.release();
    // The pool drops the connection once its error arrives.
    const dropped = next(database.pool, 'remove');
    await terminate(admin, pid);
    await dropped;

    expect(uncaught).toEqual([]);
    const { rows } = await sql<{ one: number }>`SELECT 1 AS one`.execute(database.db);
    expect(rows).toEqual([{ one: 1 }]);
  });

  it('keeps the process up when a checked-out connection dies between two queries; its next query fails', async () => {
    const held = await database.pool.connect();
    const pid = await pidOf(held);
    const ended = next(held, 'end');
    await terminate(admin, pid);
    await ended;

    expect(uncaught).toEqual([]);
    await expect(held.query('SELECT 1')).rejects.toThrow();
    held.release();
    const { rows } = await sql<{ one: number }>`SELECT 1 AS one`.execute(database.db);
    expect(rows).toEqual([{ one: 1 }]);
  });
});
