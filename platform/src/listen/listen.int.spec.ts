import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase } from '../../../test/support/database.js';
import { type DatabaseHandle, openDatabase } from '../db/index.js';
import { waitForProjections } from '../readmodel/index.js';
import { type ChannelMember, channelListener, listeningApplicationName } from './index.js';

/** A member that keeps what it heard. */
function member() {
  const heard: string[] = [];
  const lost: Error[] = [];
  const handlers: ChannelMember = {
    notified: (payload) => heard.push(payload),
    lost: (error) => lost.push(error),
  };
  return { heard, lost, handlers };
}

describe('channelListener', () => {
  let database: DatabaseHandle;
  let admin: DatabaseHandle;
  beforeAll(async () => {
    const url = await createTestDatabase();
    database = openDatabase(url, { max: 4 });
    admin = openDatabase(url, { max: 1 });
  });
  afterAll(async () => {
    await Promise.all([database?.close(), admin?.close()]);
  });

  const listening = async (channel: string) => {
    const { rows } = await admin.pool.query<{ count: string }>(
      'SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1',
      [listeningApplicationName(channel)],
    );
    return Number(rows[0]?.count);
  };
  const channelName = () => `test_${randomUUID().replaceAll('-', '')}`;

  it('gives every member of a pool one connection, and hands it back when the last leaves', async () => {
    const channel = channelName();
    const listener = channelListener(database.pool, channel);
    expect(channelListener(database.pool, channel)).toBe(listener);
    const [first, second] = [member(), member()];
    await listener.join(first.handlers);
    await listener.join(second.handlers);
    expect(await listening(channel)).toBe(1);

    await admin.pool.query(`SELECT pg_notify($1, 'one')`, [channel]);
    await vi.waitFor(() => expect([first.heard, second.heard]).toEqual([['one'], ['one']]));

    await listener.leave(first.handlers);
    expect(await listening(channel)).toBe(1);
    await listener.leave(second.handlers);
    expect(await listening(channel)).toBe(0);
    // The connection went back to the pool without its LISTEN or its name.
    const client = await database.pool.connect();
    try {
      const { rows } = await client.query<{ name: string }>('SELECT current_setting($1) AS name', [
        'application_name',
      ]);
      expect(rows[0]?.name).not.toBe(listeningApplicationName(channel));
    } finally {
      client.release();
    }
  });

  it('tells every member it lost when the connection breaks, and listens on a new one for those who join again', async () => {
    const channel = channelName();
    const listener = channelListener(database.pool, channel);
    const [first, second] = [member(), member()];
    await listener.join(first.handlers);
    await listener.join(second.handlers);
    await admin.pool.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1',
      [listeningApplicationName(channel)],
    );
    await vi.waitFor(() => expect([first.lost.length, second.lost.length]).toEqual([1, 1]));

    await listener.join(first.handlers);
    expect(await listening(channel)).toBe(1);
    await admin.pool.query(`SELECT pg_notify($1, 'after')`, [channel]);
    await vi.waitFor(() => expect(first.heard).toEqual(['after']));
    expect(second.heard).toEqual([]);
    await listener.leave(first.handlers);
  });

  it('is the one connection on the checkpoint channel for read-your-writes waits and other listeners alike', async () => {
    const channel = 'projection_checkpoint';
    const other = member();
    await channelListener(database.pool, channel).join(other.handlers);
    const waiting = waitForProjections(database.pool, '999', { projectors: ['nobody'], timeoutMs: 5000 });
    // The wait looks at the checkpoints on the listening connection itself: one connection for both.
    await vi.waitFor(async () => {
      const { rows } = await admin.pool.query<{ count: string }>(
        `SELECT count(*) FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = $1 AND query LIKE '%projection_checkpoints%'`,
        [listeningApplicationName(channel)],
      );
      expect(Number(rows[0]?.count)).toBe(1);
    });
    expect(await listening(channel)).toBe(1);
    expect(await waiting).toBe(false);
    expect(await listening(channel)).toBe(1);
    await channelListener(database.pool, channel).leave(other.handlers);
    expect(await listening(channel)).toBe(0);
  });
});
