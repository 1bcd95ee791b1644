import { createWriteStream, existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { HashChain } from '@licensestore/shared/audit-export';
import { type EventStore, type Position, recordedOrThrow } from '@licensestore/shared/eventstore';
import type pg from 'pg';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  BackupRefusedError,
  type BackupSecrets,
  backupGenesis,
  backupRecord,
  EVENTS_FILE,
  KEPT_TABLES,
  MANIFEST_FILE,
  type Manifest,
  SECRETS_FILE,
  sealSecrets,
  sha256OfFile,
  TABLES_FILE,
  UPLOADS_DIR,
} from './format.js';

const READ_BATCH = 2000;

export interface BackupOptions {
  /** The bare event store (no upcasting): events are kept in the shape and version they were recorded in. */
  store: EventStore;
  eventStore: Manifest['eventStore'];
  /** The database holding the tables kept outside the log. */
  pool: pg.Pool;
  /** Where local uploads live (`$DATA_DIR/uploads`); ignored when images go to S3. */
  uploadsDir: string;
  s3: { bucket: string; endpoint: string | null; region: string } | null;
  secrets: BackupSecrets;
  passphrase: string;
  /** A directory that does not exist yet, or is empty. */
  out: string;
  now?: Date;
}

export interface BackupSummary {
  manifest: Manifest;
  durationMs: number;
  eventsMs: number;
}

/**
 * Writes a backup of a running store into `out`: the tables kept outside the log from one snapshot, the log up to
 * the head its reading reaches, uploads, the encrypted secrets, and last the manifest (a directory without one is
 * not a backup). Reads only: no lock, no transaction id, so purchases go on meanwhile.
 */
export async function takeBackup(options: BackupOptions): Promise<BackupSummary> {
  const started = performance.now();
  await prepareOut(options.out);
  try {
    return await writeBackup(options, started);
  } catch (error) {
    // Without its manifest the directory is no backup; leaving it would only invite mistaking it for one.
    await rm(options.out, { recursive: true, force: true });
    throw error;
  }
}

async function writeBackup(options: BackupOptions, started: number): Promise<BackupSummary> {
  const createdAt = (options.now ?? new Date()).toISOString();
  const tables = await writeTables(options.pool, join(options.out, TABLES_FILE));
  const eventsStarted = performance.now();
  const events = await writeEvents(options.store, join(options.out, EVENTS_FILE), createdAt);
  const eventsMs = performance.now() - eventsStarted;
  const uploads = options.s3
    ? ({
        kind: 's3',
        ...options.s3,
        note: 'images are in this S3 bucket, not in the backup: keep the bucket versioned and replicated',
      } as const)
    : ({
        kind: 'local',
        files: await copyUploads(options.uploadsDir, join(options.out, UPLOADS_DIR)),
      } as const);
  const secretsFile = join(options.out, SECRETS_FILE);
  await writeFile(secretsFile, await sealSecrets(options.secrets, options.passphrase), { mode: 0o600 });
  const manifest: Manifest = {
    format: BACKUP_FORMAT,
    formatVersion: BACKUP_FORMAT_VERSION,
    createdAt,
    eventStore: options.eventStore,
    events,
    tables,
    uploads,
    secrets: {
      file: SECRETS_FILE,
      sha256: await sha256OfFile(secretsFile),
      holds: Object.keys(options.secrets).sort(),
    },
  };
  await writeFile(join(options.out, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`, {
    mode: 0o600,
  });
  return { manifest, durationMs: performance.now() - started, eventsMs };
}

async function prepareOut(out: string): Promise<void> {
  if (existsSync(out) && (await readdir(out)).length > 0) {
    throw new BackupRefusedError(`${out} is not empty: a backup goes into a new or empty directory`);
  }
  await mkdir(out, { recursive: true, mode: 0o700 });
}

/**
 * Every row of each kept table, from one REPEATABLE READ snapshot (so the tables agree with each other). A READ ONLY
 * transaction takes no transaction id, so it holds back none of the log's readers.
 */
async function writeTables(pool: pg.Pool, file: string): Promise<Manifest['tables']> {
  const client = await pool.connect();
  const contents: Record<string, unknown[]> = {};
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    for (const table of KEPT_TABLES) {
      const { rows } = await client.query<{ rows: unknown[] }>(
        `SELECT coalesce(jsonb_agg(to_jsonb(t) ORDER BY t.id), '[]'::jsonb) AS rows FROM ${table} t`,
      );
      contents[table] = rows[0]?.rows ?? [];
    }
    await client.query('COMMIT');
  } finally {
    client.release();
  }
  await writeFile(file, `${JSON.stringify(contents)}\n`, { mode: 0o600 });
  return {
    file: TABLES_FILE,
    sha256: await sha256OfFile(file),
    rows: Object.fromEntries(Object.entries(contents).map(([table, rows]) => [table, rows.length])),
  };
}

/**
 * The log in its own order, each event with its id, stream, revision, type, recorded time, metadata and data as
 * stored, one hash-chained line each. The store's reads of the whole log hand out only what is safe to read (in
 * Postgres, nothing an open transaction could still put before it), so the lines are always a prefix of the log;
 * the reading stops at the end it first finds, and that is the head the manifest names. A stored event that does
 * not read stops the backup: a backup that left it out would not be the log.
 */
async function writeEvents(store: EventStore, file: string, createdAt: string): Promise<Manifest['events']> {
  const chain = new HashChain(
    backupGenesis({ format: BACKUP_FORMAT, formatVersion: BACKUP_FORMAT_VERSION, createdAt }),
  );
  let firstPosition: Position | null = null;
  let lastPosition: Position | null = null;
  await pipeline(
    async function* lines() {
      for (;;) {
        const batch = await store.readAll(lastPosition, READ_BATCH);
        for (const entry of batch) {
          const event = recordedOrThrow(entry);
          firstPosition ??= event.position;
          lastPosition = event.position;
          yield `${chain.link({ seq: chain.count + 1, ...backupRecord(event) })}\n`;
        }
        if (batch.length < READ_BATCH) return;
      }
    },
    createWriteStream(file, { mode: 0o600 }),
  );
  return {
    file: EVENTS_FILE,
    sha256: await sha256OfFile(file),
    count: chain.count,
    firstPosition,
    lastPosition,
    chain: { genesis: chain.genesis, head: chain.head },
  };
}

/** Every file under the uploads directory, copied, each with its size and SHA-256; none when it does not exist. */
async function copyUploads(
  from: string,
  to: string,
): Promise<Array<{ path: string; bytes: number; sha256: string }>> {
  if (!existsSync(from)) return [];
  const files: Array<{ path: string; bytes: number; sha256: string }> = [];
  for (const entry of await readdir(from, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const source = join(entry.parentPath, entry.name);
    const path = relative(from, source);
    const target = join(to, path);
    await mkdir(dirname(target), { recursive: true, mode: 0o700 });
    await copyFile(source, target);
    files.push({ path, bytes: (await stat(target)).size, sha256: await sha256OfFile(target) });
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : 1));
}
