// What the backup tests share: the log as a restore must give it back, and the options of `npm run backup` opened on
// a test store's database.
import { createPool } from '@licensestore/platform/db';
import { openBareEventStore } from '@licensestore/platform/eventstore';
import type { BackupOptions } from '../../scripts/backup/backup.js';

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
