import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type Config, loadConfig, STACK_ENV_FILE } from '@licensestore/platform/config';
import { jsonLogger } from '@licensestore/platform/logging';
import { runCli, UsageError } from '../../projections/src/cli-support.js';
import { lockDataDir } from '../lib/lock.js';
import { startDataDirPostgres } from '../stack/embedded-postgres.js';
import { STORE_DATABASE } from '../stack/store-database.js';
import { BackupRefusedError } from './format.js';
import {
  type BackupPart,
  openBackup,
  type RestorePoint,
  type RestoreSummary,
  restoreBackup,
  restorePoint,
} from './restore.js';
import { backupS3Connection, downloadBackup, isS3Url, parseS3Url, s3Client } from './s3-shipping.js';
import { type OpeningKey, openingKey } from './sealed-secrets.js';

const USAGE = `usage: BACKUP_PASSPHRASE=… npm run restore -- DIR [INCREMENT…] [--until <ISO time | log position>]
       BACKUP_PASSPHRASE=… npm run restore -- s3://BUCKET/PREFIX [--until <ISO time | log position>]
  Brings a backup back into an empty store: DATABASE_URL's database when set, else a new DATA_DIR (its embedded
  Postgres is made and started for the restore; no npm start may be running on it). DIR is a full backup, followed by
  the increments taken after it in order, or a folder backup --follow fills. s3://BUCKET/PREFIX is where
  backup --follow --ship uploads the parts: those whose manifest is there, from the last full one on, are downloaded
  into a temporary directory first (the S3 service as for the backup: BACKUP_S3_* when any is set, else S3_*). The
  log goes back as it was, up to --until when given; then every read model is rebuilt, the log compared with the
  backup as the rebuild reads it. Then start the store: npm start.`;

/**
 * The database to restore into and how to let it go: DATABASE_URL's, or DATA_DIR's embedded Postgres, started here
 * as `npm start` would (same directory, same generated password, same database name), with DATA_DIR locked meanwhile.
 */
async function targetDatabase(
  config: Config,
): Promise<{ databaseUrl: string; release: () => Promise<void> }> {
  if (config.DATABASE_URL) return { databaseUrl: config.DATABASE_URL, release: async () => {} };
  const dataDir = resolve(config.DATA_DIR);
  if (existsSync(join(dataDir, STACK_ENV_FILE))) {
    throw new BackupRefusedError(
      `a store is running on ${dataDir} (${STACK_ENV_FILE} is there): restore into a new DATA_DIR, or stop it first`,
    );
  }
  await mkdir(dataDir, { recursive: true });
  const lock = await lockDataDir(dataDir);
  let postgres: Awaited<ReturnType<typeof startDataDirPostgres>> | undefined;
  const release = async () => {
    await postgres?.stop();
    await lock.release();
  };
  try {
    postgres = await startDataDirPostgres(dataDir);
    await postgres.createDatabase(STORE_DATABASE);
    return { databaseUrl: postgres.url(STORE_DATABASE), release };
  } catch (error) {
    // A server started for a restore that cannot go on is stopped, not left running on the new DATA_DIR.
    await release();
    throw error;
  }
}

function printSummary(summary: RestoreSummary, secretConfigured: boolean): void {
  const { backup, verify } = summary;
  const { manifest } = backup.parts[summary.partsUsed - 1] as BackupPart;
  const rate = Math.round(summary.events / Math.max(summary.eventsMs / 1000, 0.001));
  const of = summary.events === backup.head.count ? 'all' : `the first ${summary.events}`;
  console.log(
    `restored the backup of ${backup.head.createdAt} (${backup.parts.length} parts, ${summary.partsUsed} used) ` +
      `in ${Math.round(summary.durationMs)} ms`,
  );
  console.log(
    `  events: ${of} of ${backup.head.count}, up to position ${summary.lastPosition ?? '(none)'} ` +
      `recorded ${summary.lastRecordedAt ?? '-'} (${rate} events/s)`,
  );
  for (const [table, rows] of Object.entries(summary.tables)) console.log(`  ${table}: ${rows} rows`);
  console.log(
    manifest.uploads.kind === 'local'
      ? `  uploads: ${summary.uploads} files`
      : `  uploads: not in the backup; the images are in S3 bucket ${manifest.uploads.bucket}: set S3_* as before`,
  );
  for (const result of summary.rebuilt) {
    console.log(
      `  rebuilt ${result.projector}: ${result.events} events in ${Math.round(result.durationMs)} ms`,
    );
  }
  console.log(
    verify.passed
      ? `  log checked: all ${verify.events} events read ${verify.readBack ? 'back' : 'by the rebuild'} as the ` +
          'backup holds them; read models rebuilt from it (npm run audit:verify compares them with a second replay)'
      : `  log DIFFERS from the backup: ${verify.difference}`,
  );
  console.log(`  license-key secret: ${summary.secretFile} (mode 600), where npm start reads it`);
  if (secretConfigured) {
    console.log(
      '  LICENSE_KEY_SECRET is set here: every role must run with the restored one, the content of that file',
    );
  }
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { until: { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length === 0) throw new UsageError('name the backup directory');
  let until: RestorePoint | undefined;
  try {
    until = values.until === undefined ? undefined : restorePoint(values.until);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const config = loadConfig();
  const passphrase = openingKey(config);
  if (config.EVENTSTORE_CONNECTION_STRING) {
    throw new BackupRefusedError(
      'EVENTSTORE_CONNECTION_STRING is set: restoring into EventStoreDB is not supported yet; restore into the ' +
        'Postgres event store (unset it), whichever store the backup came from',
    );
  }
  const downloads = await mkdtemp(join(tmpdir(), 'licensestore-restore-'));
  try {
    return await restoreFrom(await downloaded(positionals, downloads, config), passphrase, until, config);
  } finally {
    await rm(downloads, { recursive: true, force: true });
  }
}

/** The backup's directories, each S3 location downloaded into a folder of parts of its own under `downloads`. */
async function downloaded(dirs: string[], downloads: string, config: Config): Promise<string[]> {
  const local: string[] = [];
  for (const [index, dir] of dirs.entries()) {
    if (!isS3Url(dir)) {
      local.push(dir);
      continue;
    }
    const location = parseS3Url(dir);
    const into = join(downloads, String(index));
    const names = await downloadBackup(s3Client(backupS3Connection(config)), location, into);
    console.log(`downloaded ${names.length} parts from ${dir}: ${names[0]} to ${names.at(-1)}`);
    local.push(into);
  }
  return local;
}

async function restoreFrom(
  dirs: string[],
  passphrase: OpeningKey,
  until: RestorePoint | undefined,
  config: Config,
): Promise<number> {
  // The backup is checked whole before the target is touched, even to start its database.
  const backup = await openBackup(dirs, passphrase);
  const target = await targetDatabase(config);
  try {
    const summary = await restoreBackup({
      backup,
      until,
      databaseUrl: target.databaseUrl,
      dataDir: resolve(config.DATA_DIR),
      log: jsonLogger({ role: 'restore' }, config.LOG_LEVEL),
    });
    printSummary(summary, config.LICENSE_KEY_SECRET !== undefined);
    return summary.verify.passed ? 0 : 1;
  } finally {
    await target.release();
  }
}

runCli(main, USAGE);
