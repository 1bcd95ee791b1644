// The backup loop's own process (bench/support/backup-loop.ts starts it): full backups one after another until it is
// killed, each reported to the parent and then removed.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { yieldToTheStore } from '../../scripts/backup/priority.js';
import { type BackupLoopMessage, backUp } from './backup.js';

const need = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

const send = (message: BackupLoopMessage) => process.send?.(message);

async function loop() {
  const target = {
    databaseUrl: need('BENCH_BACKUP_DATABASE_URL'),
    licenseKeySecret: need('BENCH_BACKUP_LICENSE_KEY_SECRET'),
    uploadsDir: need('BENCH_BACKUP_UPLOADS_DIR'),
  };
  const scratch = need('BENCH_BACKUP_SCRATCH');
  // As `npm run backup` does.
  yieldToTheStore();
  send({ ready: true });
  for (let n = 1; ; n++) {
    const out = join(scratch, `backup-${n}`);
    const { manifest, durationMs, eventsMs } = await backUp(target, out);
    send({ backup: { events: manifest.events.count, durationMs, eventsMs } });
    await rm(out, { recursive: true, force: true });
  }
}

loop().catch((error: unknown) => {
  // Also on stderr, which the bench shares: the message can be lost when the process ends before it is read.
  console.error('backup loop:', error);
  send({ failed: error instanceof Error ? error.message : String(error) });
  process.exitCode = 1;
  process.disconnect?.();
});
