import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type Config, databaseUrlForTool, loadConfig } from '@licensestore/shared/config';
import { createPool } from '@licensestore/shared/db';
import { openBareEventStore } from '@licensestore/shared/eventstore';
import { runCli, UsageError } from '../../projections/src/cli-support.js';
import { LICENCE_KEY_SECRET_FILE, secretsDir } from '../lib/secrets.js';
import { takeBackup } from './backup.js';
import { BackupRefusedError, checkPassphrase, UPLOADS_DIR } from './format.js';

const USAGE = `usage: BACKUP_PASSPHRASE=… npm run backup -- --out DIR
  Backs up the store npm start runs (or DATABASE_URL's, or EVENTSTORE_CONNECTION_STRING's log) into DIR, a new or
  empty directory, while it runs: the event log, the back-office users, uploaded images and the licence-key secret
  (encrypted with BACKUP_PASSPHRASE), with a manifest. Bring it back with npm run restore -- DIR.`;

/** The licence-key secret the store runs with: LICENCE_KEY_SECRET, else the one npm start keeps in DATA_DIR. */
async function licenceKeySecret(config: Config): Promise<string> {
  if (config.LICENCE_KEY_SECRET) return config.LICENCE_KEY_SECRET;
  const file = join(secretsDir(config.DATA_DIR), LICENCE_KEY_SECRET_FILE);
  if (!existsSync(file)) {
    throw new BackupRefusedError(
      `LICENCE_KEY_SECRET is not set and ${file} does not exist: without the key that seals the sold licence keys a ` +
        'backup could not give them back. Set LICENCE_KEY_SECRET to the one the store runs with.',
    );
  }
  return (await readFile(file, 'utf8')).trim();
}

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { out: { type: 'string' } }, strict: true });
  if (!values.out) throw new UsageError('--out is required');
  const config = loadConfig();
  const passphrase = checkPassphrase(config.BACKUP_PASSPHRASE);
  const secrets = { LICENCE_KEY_SECRET: await licenceKeySecret(config) };
  const databaseUrl = await databaseUrlForTool(config);
  const store = await openBareEventStore({
    databaseUrl,
    eventStoreConnectionString: config.EVENTSTORE_CONNECTION_STRING,
  });
  const pool = createPool(databaseUrl);
  try {
    const { manifest, durationMs, eventsMs } = await takeBackup({
      store,
      eventStore: config.EVENTSTORE_CONNECTION_STRING ? 'eventstoredb' : 'postgres',
      pool,
      uploadsDir: resolve(config.DATA_DIR, UPLOADS_DIR),
      s3: config.S3_BUCKET
        ? { bucket: config.S3_BUCKET, endpoint: config.S3_ENDPOINT ?? null, region: config.S3_REGION }
        : null,
      secrets,
      passphrase,
      out: values.out,
    });
    const { events, tables, uploads } = manifest;
    const rate = Math.round(events.count / Math.max(eventsMs / 1000, 0.001));
    console.log(`backup written to ${values.out} in ${Math.round(durationMs)} ms`);
    console.log(
      `  events: ${events.count} up to position ${events.lastPosition ?? '(none)'} (${rate} events/s)`,
    );
    console.log(`  chain head: ${events.chain.head}`);
    for (const [table, rows] of Object.entries(tables.rows)) console.log(`  ${table}: ${rows} rows`);
    console.log(
      uploads.kind === 'local'
        ? `  uploads: ${uploads.files.length} files`
        : `  uploads: in S3 bucket ${uploads.bucket}, not copied`,
    );
    console.log('  secrets: the licence-key secret, encrypted with BACKUP_PASSPHRASE');
    console.log('Copy the whole directory off this machine; keep BACKUP_PASSPHRASE apart from it.');
    return 0;
  } finally {
    await Promise.allSettled([store.close(), pool.end()]);
  }
}

runCli(main, USAGE);
