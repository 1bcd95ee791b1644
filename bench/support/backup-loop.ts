import { type ChildProcess, spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { BackupLoopMessage, BenchBackupTarget, LoopedBackup } from './backup.js';
import { ROOT } from './store.js';

export interface BackupLoop {
  /** Backups finished since the loop started, each a whole one. */
  finished: LoopedBackup[];
  /** Ends the loop at once, a backup in progress cut off, and removes what it wrote. */
  stop: () => Promise<void>;
}

/**
 * Full backups one after another, in a process of their own as `npm run backup` runs beside the store, each into
 * a fresh directory under `scratch` that is removed once it is finished. Resolves once the loop's process has loaded
 * and its first backup is starting, so what it costs to start falls outside what the caller measures.
 */
export async function startBackupLoop(target: BenchBackupTarget, scratch: string): Promise<BackupLoop> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'bench/support/backup-loop-child.ts')],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        BENCH_BACKUP_DATABASE_URL: target.databaseUrl,
        BENCH_BACKUP_LICENSE_KEY_SECRET: target.licenseKeySecret,
        BENCH_BACKUP_UPLOADS_DIR: target.uploadsDir,
        BENCH_BACKUP_SCRATCH: scratch,
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const finished: LoopedBackup[] = [];
  let failure: string | null = null;
  await new Promise<void>((resolve, reject) => {
    child.on('message', (message: BackupLoopMessage) => {
      if ('ready' in message) resolve();
      else if ('backup' in message) finished.push(message.backup);
      else failure = message.failed;
    });
    exited.then(() =>
      reject(new Error(`the backup loop ended before it started: ${failure ?? 'no reason given'}`)),
    );
  });
  return {
    finished,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
      await rm(scratch, { recursive: true, force: true });
      if (failure) throw new Error(`a backup of the loop failed: ${failure}`);
    },
  };
}
