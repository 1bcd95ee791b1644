import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type Config, databaseUrlForTool, loadConfig } from '@licensestore/platform/config';
import { createPool } from '@licensestore/platform/db';
import { openBareEventStore } from '@licensestore/platform/eventstore';
import { abortedOnSignal, runCli, UsageError } from '../../projections/src/cli-support.js';
import { LICENSE_KEY_SECRET_FILE, secretsDir } from '../lib/secrets.js';
import { type BackupSummary, takeBackup } from './backup.js';
import { followBackups } from './follow.js';
import { BackupRefusedError, UPLOADS_DIR } from './format.js';
import { yieldToTheStore } from './priority.js';
import { backupS3Connection, parseS3Url, S3Shipper, s3Client, s3Url } from './s3-shipping.js';
import { sealingKey } from './sealed-secrets.js';

const USAGE = `usage: BACKUP_PASSPHRASE=… npm run backup -- --out DIR [--since PREVIOUS]
       BACKUP_PASSPHRASE=… npm run backup -- --out FOLDER --follow [--every SECONDS] [--full-every HOURS]
                                             [--ship s3://BUCKET/PREFIX]
  Backs up the store npm start runs (or DATABASE_URL's, or EVENTSTORE_CONNECTION_STRING's log) into DIR, a new or
  empty directory, while it runs: the event log, the back-office users, uploaded images and the license-key secret
  (encrypted with BACKUP_PASSPHRASE), with a manifest. With --since, only what came after the backup PREVIOUS (a
  full backup or an increment). With --follow it keeps running beside the store, adding to FOLDER an increment of
  what is new every SECONDS (5) and a full backup every HOURS (24). With --ship, each part is also uploaded as soon
  as it is written, under PREFIX/<part name>/, its manifest last; FOLDER stays the staging area, and a part that
  fails to upload is uploaded again next turn, in order. The S3 service is BACKUP_S3_ENDPOINT, BACKUP_S3_REGION and
  BACKUP_S3_ACCESS_KEY_ID with BACKUP_S3_SECRET_ACCESS_KEY when any is set, else the images' S3_ENDPOINT, S3_REGION,
  S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY (no keys: the AWS SDK's default chain). Bring it back with
  npm run restore -- DIR… (or s3://BUCKET/PREFIX).`;

/** The license-key secret the store runs with: LICENSE_KEY_SECRET, else the one npm start keeps in DATA_DIR. */
async function licenseKeySecret(config: Config): Promise<string> {
  if (config.LICENSE_KEY_SECRET) return config.LICENSE_KEY_SECRET;
  const file = join(secretsDir(config.DATA_DIR), LICENSE_KEY_SECRET_FILE);
  if (!existsSync(file)) {
    throw new BackupRefusedError(
      `LICENSE_KEY_SECRET is not set and ${file} does not exist: without the key that seals the sold license keys a ` +
        'backup could not give them back. Set LICENSE_KEY_SECRET to the one the store runs with.',
    );
  }
  return (await readFile(file, 'utf8')).trim();
}

const positive = (text: string | undefined, fallback: number, name: string): number => {
  const value = text === undefined ? fallback : Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new UsageError(`${name}: a positive number`);
  return value;
};

function printBackup(out: string, { manifest, durationMs, eventsMs }: BackupSummary): void {
  const { events, tables, uploads } = manifest;
  const rate = Math.round(events.count / Math.max(eventsMs / 1000, 0.001));
  console.log(
    `${manifest.kind === 'full' ? 'backup' : 'increment'} written to ${out} in ${Math.round(durationMs)} ms`,
  );
  console.log(
    `  events: ${events.count} up to position ${events.lastPosition ?? '(none)'} (${rate} events/s)`,
  );
  console.log(`  chain head: ${events.chain.head}`);
  for (const [table, rows] of Object.entries(tables.rows)) console.log(`  ${table}: ${rows} rows`);
  console.log(
    uploads.kind === 'local'
      ? `  uploads: ${uploads.files.filter((file) => file.copied).length} files copied of ${uploads.files.length}`
      : `  uploads: in S3 bucket ${uploads.bucket}, not copied`,
  );
  if (manifest.secrets) console.log('  secrets: the license-key secret, encrypted with BACKUP_PASSPHRASE');
}

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      out: { type: 'string' },
      since: { type: 'string' },
      follow: { type: 'boolean' },
      every: { type: 'string' },
      'full-every': { type: 'string' },
      ship: { type: 'string' },
    },
    strict: true,
  });
  const out = values.out;
  if (!out) throw new UsageError('--out is required');
  if (values.follow && values.since) throw new UsageError('--follow finds its own previous part: no --since');
  if (!values.follow && (values.every || values['full-every'] || values.ship)) {
    throw new UsageError('--every, --full-every and --ship go with --follow');
  }
  if (out.startsWith('s3://'))
    throw new UsageError('--out is a local folder: name the S3 location with --ship');
  let shipTo: ReturnType<typeof parseS3Url> | undefined;
  try {
    shipTo = values.ship === undefined ? undefined : parseS3Url(values.ship);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const everyMs = positive(values.every, 5, '--every') * 1000;
  const fullEveryMs = positive(values['full-every'], 24, '--full-every') * 3_600_000;
  yieldToTheStore();
  const config = loadConfig();
  const shipper = shipTo && new S3Shipper(s3Client(backupS3Connection(config)), shipTo);
  const passphrase = sealingKey(config);
  const secrets = { LICENCE_KEY_SECRET: await licenseKeySecret(config) };
  const databaseUrl = await databaseUrlForTool(config);
  const store = await openBareEventStore({
    databaseUrl,
    eventStoreConnectionString: config.EVENTSTORE_CONNECTION_STRING,
  });
  const pool = createPool(databaseUrl);
  const options = {
    store,
    eventStore: config.EVENTSTORE_CONNECTION_STRING ? ('eventstoredb' as const) : ('postgres' as const),
    pool,
    uploadsDir: resolve(config.DATA_DIR, UPLOADS_DIR),
    s3: config.S3_BUCKET
      ? { bucket: config.S3_BUCKET, endpoint: config.S3_ENDPOINT ?? null, region: config.S3_REGION }
      : null,
    secrets,
    passphrase,
  };
  try {
    if (values.follow) {
      console.log(
        `following the store into ${out}${shipper ? ` and ${s3Url(shipper.location)}` : ''}: an increment every ` +
          `${everyMs / 1000} s when there is news`,
      );
      await followBackups({
        ...options,
        dir: out,
        everyMs,
        fullEveryMs,
        signal: abortedOnSignal(),
        onPart: ({ dir, summary }) => printBackup(dir, summary),
        ship:
          shipper &&
          (async (dir) => {
            for (const name of await shipper.shipPending(dir)) {
              console.log(`shipped ${name} to ${s3Url(shipper.location)}/${name}`);
            }
          }),
        onError: (error) => console.error(`backup failed, trying again: ${(error as Error).message}`),
      });
      return 0;
    }
    printBackup(out, await takeBackup({ ...options, out, since: values.since }));
    console.log('Copy the whole directory off this machine; keep BACKUP_PASSPHRASE apart from it.');
    return 0;
  } finally {
    await Promise.allSettled([store.close(), pool.end()]);
  }
}

runCli(main, USAGE);
