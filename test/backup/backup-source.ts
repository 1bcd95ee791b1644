// What the backup tests share: the log as a restore must give it back, the options of `npm run backup` opened on
// a test store's database, and `backup --follow` beside a store that sells.
import { createPool } from '@licensestore/platform/db';
import { openBareEventStore } from '@licensestore/platform/eventstore';
import { expect, vi } from 'vitest';
import type { BackupOptions } from '../../scripts/backup/backup.js';
import { type FollowOptions, followBackups } from '../../scripts/backup/follow.js';

/**
 * Every event of the log in its order (by writer transaction, then position), as stored: everything a backup must
 * give back. Times to the millisecond: the event-store port reads them as JavaScript dates.
 */
export async function wholeLog(databaseUrl: string) {
  const pool = createPool(databaseUrl, 1);
  try {
    const { rows } = await pool.query(
      `SELECT global_position, stream_id, stream_revision, event_id, event_type, data, metadata,
              date_trunc('milliseconds', created_at) AS created_at
         FROM event_store.events ORDER BY transaction_id, global_position`,
    );
    return rows;
  } finally {
    await pool.end();
  }
}

/**
 * The options `npm run backup` would take on the store of `databaseUrl` (its Postgres log read bare, images on local
 * disk), and how to close what they hold open.
 */
export async function backupSource(
  databaseUrl: string,
  {
    uploadsDir,
    licenseKeySecret,
    passphrase,
  }: { uploadsDir: string; licenseKeySecret: string; passphrase: string },
): Promise<{ options: Omit<BackupOptions, 'out'>; close: () => Promise<unknown> }> {
  const store = await openBareEventStore({ databaseUrl });
  const pool = createPool(databaseUrl, 2);
  return {
    options: {
      store,
      eventStore: 'postgres',
      pool,
      uploadsDir,
      s3: null,
      secrets: { LICENCE_KEY_SECRET: licenseKeySecret },
      passphrase,
    },
    close: () => Promise.all([store.close(), pool.end()]),
  };
}

/**
 * Runs `backup --follow` (a turn every 100 ms, one full backup) while the store of `source` adds two products with
 * keys, and stops it once `eventsKept` (what the parts written, or shipped, hold) has been the whole log after each.
 */
export async function followWhileTheStoreChanges(
  source: { databaseUrl: string; productWithKeys: (keys: number) => Promise<unknown> },
  follow: Omit<FollowOptions, 'everyMs' | 'fullEveryMs' | 'signal' | 'onError'>,
  eventsKept: () => number | undefined,
): Promise<void> {
  const controller = new AbortController();
  const following = followBackups({
    ...follow,
    everyMs: 100,
    fullEveryMs: 3_600_000,
    signal: controller.signal,
    onError: (error) => {
      throw error;
    },
  });
  const allKept = async () => {
    const events = (await wholeLog(source.databaseUrl)).length;
    await vi.waitFor(() => expect(eventsKept()).toBe(events), { timeout: 10_000 });
  };
  await allKept();
  for (const keys of [2, 1]) {
    await source.productWithKeys(keys);
    await allKept();
  }
  controller.abort();
  await following;
}
