import { randomBytes } from 'node:crypto';
import { createPool } from '@licensestore/platform/db';
import { openBareEventStore } from '@licensestore/platform/eventstore';
import { type BackupSummary, takeBackup } from '../../scripts/backup/backup.js';

/** A passphrase of this run only: its backups are read back by this run and removed. */
export const BENCH_BACKUP_PASSPHRASE = randomBytes(24).toString('base64url');

export interface BenchBackupTarget {
  databaseUrl: string;
  licenseKeySecret: string;
  /** The store's uploads directory (`$DATA_DIR/uploads`); it need not exist. */
  uploadsDir: string;
}

/** One full backup of the store's Postgres log into `out`, as `npm run backup` takes it: the bare store, no S3. */
export async function backUp(target: BenchBackupTarget, out: string): Promise<BackupSummary> {
  const store = await openBareEventStore({ databaseUrl: target.databaseUrl });
  const pool = createPool(target.databaseUrl);
  try {
    return await takeBackup({
      store,
      eventStore: 'postgres',
      pool,
      uploadsDir: target.uploadsDir,
      s3: null,
      secrets: { LICENCE_KEY_SECRET: target.licenseKeySecret },
      passphrase: BENCH_BACKUP_PASSPHRASE,
      out,
    });
  } finally {
    await Promise.allSettled([store.close(), pool.end()]);
  }
}

/** A backup the loop finished: its events and how long it took. */
export interface LoopedBackup {
  events: number;
  durationMs: number;
  eventsMs: number;
}

/** Messages of the loop's process to this one. */
export type BackupLoopMessage = { ready: true } | { backup: LoopedBackup } | { failed: string };
