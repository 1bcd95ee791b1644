import { createWriteStream, existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { type EventStore, type Position, recordedOrThrow } from '@licensestore/domain/events';
import { HashChain } from '@licensestore/platform/audit-export';
import type pg from 'pg';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  BackupRefusedError,
  backupGenesis,
  backupRecord,
  EVENTS_FILE,
  KEPT_TABLES,
  MANIFEST_FILE,
  type Manifest,
  readManifest,
  SECRETS_FILE,
  type Since,
  sha256OfFile,
  sinceOf,
  syncToDisk,
  TABLES_FILE,
  UPLOADS_DIR,
} from './format.js';
import { type BackupSecrets, type SealingKey, sealSecrets } from './sealed-secrets.js';

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
  /** What seals the secrets: the passphrase, or a recipient's public key. */
  passphrase: SealingKey;
  /** A directory that does not exist yet, or is empty. */
  out: string;
  /** The part this backup goes on from (a full backup or an increment): then only what came after it is written. */
  since?: string | undefined;
  now?: Date;
}

export interface BackupSummary {
  manifest: Manifest;
  durationMs: number;
  eventsMs: number;
}

/**
 * Writes a backup of a running store into `out`: the tables kept outside the log from one snapshot, the log up to
 * the head its reading reaches (after `since`'s head for an increment), the images, the encrypted secrets (in a full
 * backup), and last the manifest, each flushed to disk (a directory without a manifest is not a backup). Reads only:
 * no lock, no transaction id, so purchases go on meanwhile.
 */
export async function takeBackup(options: BackupOptions): Promise<BackupSummary> {
  return (await backupInto(options, false)) as BackupSummary;
}

/**
 * An increment after `since`, unless the log, the kept tables and the images are as that part left them: then nothing
 * is written and the answer is null.
 */
export function takeIncrementIfChanged(
  options: BackupOptions & { since: string },
): Promise<BackupSummary | null> {
  return backupInto(options, true);
}

async function backupInto(options: BackupOptions, onlyIfChanged: boolean): Promise<BackupSummary | null> {
  const started = performance.now();
  const previous = options.since === undefined ? null : await readManifest(options.since);
  if (previous && previous.eventStore !== options.eventStore) {
    throw new BackupRefusedError(
      `${options.since} is a backup of an ${previous.eventStore} log; this store's log is ${options.eventStore}'s`,
    );
  }
  await prepareOut(options.out);
  try {
    const summary = await writeBackup(options, previous, onlyIfChanged, started);
    if (summary === null) await rm(options.out, { recursive: true, force: true });
    return summary;
  } catch (error) {
    // Without its manifest the directory is no backup; leaving it would only invite mistaking it for one.
    await rm(options.out, { recursive: true, force: true });
    throw error;
  }
}

async function writeBackup(
  options: BackupOptions,
  previous: Manifest | null,
  onlyIfChanged: boolean,
  started: number,
): Promise<BackupSummary | null> {
  const createdAt = (options.now ?? new Date()).toISOString();
  const since = previous ? sinceOf(previous) : null;
  const tables = await writeTables(options.pool, join(options.out, TABLES_FILE));
  const eventsStarted = performance.now();
  const events = await writeEvents(options.store, join(options.out, EVENTS_FILE), createdAt, since);
  const eventsMs = performance.now() - eventsStarted;
  const uploads = options.s3
    ? ({
        kind: 's3',
        ...options.s3,
        note: 'images are in this S3 bucket, not in the backup: keep the bucket versioned and replicated',
      } as const)
    : ({
        kind: 'local',
        files: await copyUploads(options.uploadsDir, join(options.out, UPLOADS_DIR), previous),
      } as const);
  if (
    onlyIfChanged &&
    previous &&
    events.count === 0 &&
    tables.sha256 === previous.tables.sha256 &&
    (uploads.kind === 's3' || uploads.files.every((file) => !file.copied))
  ) {
    return null;
  }
  const manifest: Manifest = {
    format: BACKUP_FORMAT,
    formatVersion: BACKUP_FORMAT_VERSION,
    createdAt,
    kind: since ? 'increment' : 'full',
    since,
    eventStore: options.eventStore,
    events,
    tables,
    uploads,
    secrets: since ? null : await writeSecrets(options),
  };
  const manifestFile = join(options.out, MANIFEST_FILE);
  await writeFile(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  await syncToDisk(manifestFile);
  await syncToDisk(options.out);
  return { manifest, durationMs: performance.now() - started, eventsMs };
}

async function writeSecrets(options: BackupOptions): Promise<NonNullable<Manifest['secrets']>> {
  const file = join(options.out, SECRETS_FILE);
  await writeFile(file, await sealSecrets(options.secrets, options.passphrase), { mode: 0o600 });
  await syncToDisk(file);
  return { file: SECRETS_FILE, sha256: await sha256OfFile(file), holds: Object.keys(options.secrets).sort() };
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
  await syncToDisk(file);
  return {
    file: TABLES_FILE,
    sha256: await sha256OfFile(file),
    rows: Object.fromEntries(Object.entries(contents).map(([table, rows]) => [table, rows.length])),
  };
}

/**
 * The log in its own order (after `since`'s head for an increment), each event with its id, stream, revision, type,
 * recorded time, metadata and data as stored, one hash-chained line each, numbered on from the part before. The
 * store's reads of the whole log hand out only what is safe to read (in Postgres, nothing an open transaction could
 * still put before it), so the lines are always a prefix of the log; the reading stops at the end it first finds,
 * and that is the head the manifest names. A stored event that does not read stops the backup: a backup that left
 * it out would not be the log.
 */
async function writeEvents(
  store: EventStore,
  file: string,
  createdAt: string,
  since: Since | null,
): Promise<Manifest['events']> {
  const chain = new HashChain(
    since?.chainHead ??
      backupGenesis({ format: BACKUP_FORMAT, formatVersion: BACKUP_FORMAT_VERSION, createdAt }),
  );
  const before = since?.count ?? 0;
  let firstPosition: Position | null = null;
  let lastPosition: Position | null = since?.lastPosition ?? null;
  await pipeline(
    async function* lines() {
      for (;;) {
        const batch = await store.readAll(lastPosition, READ_BATCH);
        for (const entry of batch) {
          const event = recordedOrThrow(entry);
          firstPosition ??= event.position;
          lastPosition = event.position;
          yield `${chain.link({ seq: before + chain.count + 1, ...backupRecord(event) })}\n`;
        }
        if (batch.length < READ_BATCH) return;
      }
    },
    createWriteStream(file, { mode: 0o600 }),
  );
  await syncToDisk(file);
  return {
    file: EVENTS_FILE,
    sha256: await sha256OfFile(file),
    count: chain.count,
    firstPosition,
    lastPosition,
    chain: { genesis: chain.genesis, head: chain.head },
  };
}

type UploadEntry = Extract<Manifest['uploads'], { kind: 'local' }>['files'][number];

/**
 * Every file under the uploads directory with its size and SHA-256, copied unless the part before already lists it
 * with the same contents (then an earlier part holds its bytes); none when the directory does not exist.
 */
async function copyUploads(from: string, to: string, previous: Manifest | null): Promise<UploadEntry[]> {
  if (!existsSync(from)) return [];
  const held = new Map(
    previous?.uploads.kind === 'local' ? previous.uploads.files.map((file) => [file.path, file.sha256]) : [],
  );
  const files: UploadEntry[] = [];
  for (const entry of await readdir(from, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const source = join(entry.parentPath, entry.name);
    const path = relative(from, source);
    const [sha256, { size: bytes }] = await Promise.all([sha256OfFile(source), stat(source)]);
    if (held.get(path) === sha256) {
      files.push({ path, bytes, sha256, copied: false });
      continue;
    }
    // The copy is what is listed, so the listing describes the bytes the part holds even if the image changes meanwhile.
    const target = join(to, path);
    await mkdir(dirname(target), { recursive: true, mode: 0o700 });
    await copyFile(source, target);
    await syncToDisk(target);
    const [copySha, { size: copyBytes }] = await Promise.all([sha256OfFile(target), stat(target)]);
    files.push({ path, bytes: copyBytes, sha256: copySha, copied: true });
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : 1));
}
