import { createReadStream, existsSync } from 'node:fs';
import { chmod, copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, normalize, sep } from 'node:path';
import { createInterface } from 'node:readline';
import { HashChain } from '@licensestore/shared/audit-export';
import type { VerifyReport } from '@licensestore/shared/audit-verify';
import { openDatabase } from '@licensestore/shared/db';
import {
  decodePosition,
  encodePosition,
  isEmptyPostgresLog,
  openEventStore,
  type RestoredEvent,
  writeRestoredEvents,
} from '@licensestore/shared/eventstore';
import type { Logger } from '@licensestore/shared/logging';
import type pg from 'pg';
import { verifyReadModels } from '../../projections/src/audit/verify.js';
import { allProjectors } from '../../projections/src/projectors.js';
import { type RebuildResult, rebuildProjectors } from '../../projections/src/rebuild.js';
import { prepareStore } from '../lib/prepare.js';
import { LICENCE_KEY_SECRET_FILE, secretsDir } from '../lib/secrets.js';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  type BackupLine,
  BackupRefusedError,
  type BackupSecrets,
  backupGenesis,
  backupLineSchema,
  EVENTS_FILE,
  KEPT_TABLES,
  MANIFEST_FILE,
  type Manifest,
  manifestSchema,
  openSecrets,
  SECRETS_FILE,
  sha256OfFile,
  TABLES_FILE,
  UPLOADS_DIR,
} from './format.js';

/** Where a restore stops: after the last event recorded at or before a time, or at a position of the backup's log. */
export type RestorePoint = { at: Date } | { position: string };

/** A backup whose manifest, parts, chain and passphrase have been checked, its secrets open. */
export interface CheckedBackup {
  dir: string;
  manifest: Manifest;
  secrets: BackupSecrets;
}

export interface RestoreOptions {
  backup: CheckedBackup;
  until?: RestorePoint | undefined;
  /** The empty database to restore into (event log and tables). */
  databaseUrl: string;
  /** The DATA_DIR of the store that will run on it: its licence-key secret and uploads go there. */
  dataDir: string;
  log: Logger;
}

export interface RestoreSummary {
  manifest: Manifest;
  events: number;
  lastPosition: string | null;
  lastRecordedAt: string | null;
  tables: Record<string, number>;
  uploads: number;
  secretFile: string;
  rebuilt: RebuildResult[];
  verify: VerifyReport;
  eventsMs: number;
  durationMs: number;
}

const POSITION = /^\d{1,20}\/\d{1,20}$/;

/** `--until`: a log position as the backup names them, or an ISO time with Z or an offset. */
export function restorePoint(text: string): RestorePoint {
  if (POSITION.test(text)) {
    const [major, minor] = decodePosition(text);
    return { position: encodePosition(major, minor) };
  }
  const at = new Date(text);
  if (!/(Z|[+-]\d{2}:?\d{2})$/.test(text) || Number.isNaN(at.getTime())) {
    throw new BackupRefusedError(
      `--until ${text}: not a log position (as the backup's manifest writes them) nor an ISO time with Z or an offset`,
    );
  }
  return { at };
}

/**
 * The backup in `dir`, checked before any target is touched: the manifest and its format version, each part's SHA-256
 * (naming the part that differs), the chain over the events (naming the line), and the passphrase.
 */
export async function openBackup(dir: string, passphrase: string): Promise<CheckedBackup> {
  const manifest = await readManifest(dir);
  await checkParts(dir, manifest);
  await checkChain(dir, manifest);
  const secrets = await openSecrets(await readFile(join(dir, SECRETS_FILE), 'utf8'), passphrase);
  return { dir, manifest, secrets };
}

/**
 * Brings a checked backup back into an empty store. Before anything is written, the target must hold no event, no
 * kept row, no upload and no other licence-key secret. Then the log goes back as it was (up to `until`), then the
 * kept tables, uploads and the secret; every read model is rebuilt from the log and verified.
 */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreSummary> {
  const started = performance.now();
  const { dir: from, manifest, secrets } = options.backup;
  const secretFile = join(secretsDir(options.dataDir), LICENCE_KEY_SECRET_FILE);
  await checkTargetFiles(options.dataDir, secretFile, secrets);

  // The pool size audit:verify opens for verifying every projector at once.
  const database = openDatabase(options.databaseUrl, { max: allProjectors.length + 2 });
  try {
    await checkTargetDatabase(database.pool);
    await prepareStore({
      databaseUrl: options.databaseUrl,
      licenceKeySecret: secrets.LICENCE_KEY_SECRET,
      seedDemo: false,
      log: () => {},
    });
    const eventsStarted = performance.now();
    const cut = { count: 0, lastPosition: null as string | null, lastRecordedAt: null as string | null };
    await writeRestoredEvents(database.pool, restoredEvents(from, manifest, options.until, cut));
    const eventsMs = performance.now() - eventsStarted;
    const tables = await restoreTables(database.pool, join(from, TABLES_FILE));
    const uploads = await restoreUploads(from, manifest, join(options.dataDir, UPLOADS_DIR));
    await writeSecret(secretFile, secrets);

    const store = await openEventStore({ databaseUrl: options.databaseUrl });
    try {
      const rebuilt = await rebuildProjectors({
        db: database.db,
        pool: database.pool,
        store,
        projectors: allProjectors,
        log: options.log,
      });
      const verify = await verifyReadModels({
        db: database.db,
        pool: database.pool,
        store,
        log: options.log,
      });
      return {
        manifest,
        events: cut.count,
        lastPosition: cut.lastPosition,
        lastRecordedAt: cut.lastRecordedAt,
        tables,
        uploads,
        secretFile,
        rebuilt,
        verify,
        eventsMs,
        durationMs: performance.now() - started,
      };
    } finally {
      await store.close();
    }
  } finally {
    await database.close();
  }
}

async function readManifest(from: string): Promise<Manifest> {
  let text: string;
  try {
    text = await readFile(join(from, MANIFEST_FILE), 'utf8');
  } catch {
    throw new BackupRefusedError(`${join(from, MANIFEST_FILE)} cannot be read: ${from} is not a backup`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new BackupRefusedError(`${MANIFEST_FILE} is not JSON`);
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    throw new BackupRefusedError(
      `${MANIFEST_FILE} is not a ${BACKUP_FORMAT} manifest (${parsed.error.message})`,
    );
  }
  if (parsed.data.formatVersion !== BACKUP_FORMAT_VERSION) {
    throw new BackupRefusedError(
      `${MANIFEST_FILE}: format version ${parsed.data.formatVersion}; this code reads version ${BACKUP_FORMAT_VERSION}`,
    );
  }
  return parsed.data;
}

/** Each part's SHA-256 against the manifest's, naming the first that differs. */
async function checkParts(from: string, manifest: Manifest): Promise<void> {
  const parts: Array<{ path: string; sha256: string }> = [
    { path: manifest.events.file, sha256: manifest.events.sha256 },
    { path: manifest.tables.file, sha256: manifest.tables.sha256 },
    { path: manifest.secrets.file, sha256: manifest.secrets.sha256 },
    ...(manifest.uploads.kind === 'local'
      ? manifest.uploads.files.map((file) => ({ path: join(UPLOADS_DIR, file.path), sha256: file.sha256 }))
      : []),
  ];
  for (const part of parts) {
    // An image's path comes from the manifest: one that leads out of the backup would lead out of DATA_DIR too.
    if (isAbsolute(part.path) || normalize(part.path).split(sep).includes('..')) {
      throw new BackupRefusedError(`part ${part.path} names a place outside the backup`);
    }
    const file = join(from, part.path);
    if (!existsSync(file)) throw new BackupRefusedError(`part ${part.path} is missing from the backup`);
    if ((await sha256OfFile(file)) !== part.sha256) {
      throw new BackupRefusedError(`part ${part.path} does not match its SHA-256 in the manifest`);
    }
  }
}

async function* backupLines(from: string): AsyncGenerator<{ line: BackupLine; number: number }> {
  let number = 0;
  for await (const text of createInterface({
    input: createReadStream(join(from, EVENTS_FILE)),
    crlfDelay: Infinity,
  })) {
    if (text === '') continue;
    number += 1;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new BackupRefusedError(`${EVENTS_FILE} line ${number}: not JSON`);
    }
    const parsed = backupLineSchema.safeParse(json);
    if (!parsed.success) throw new BackupRefusedError(`${EVENTS_FILE} line ${number}: not a backup line`);
    yield { line: parsed.data, number };
  }
}

/** The chain over the event lines, from the genesis the manifest's header gives to the head it names. */
async function checkChain(from: string, manifest: Manifest): Promise<void> {
  const genesis = backupGenesis({
    format: manifest.format,
    formatVersion: manifest.formatVersion,
    createdAt: manifest.createdAt,
  });
  if (genesis !== manifest.events.chain.genesis) {
    throw new BackupRefusedError(`${EVENTS_FILE}: the chain's genesis does not match the manifest's header`);
  }
  const chain = new HashChain(genesis);
  for await (const { line, number } of backupLines(from)) {
    const { prev, hash, ...record } = line;
    if (prev !== chain.head || record.seq !== number) {
      throw new BackupRefusedError(
        `${EVENTS_FILE} line ${number}: breaks the chain (a line missing or moved)`,
      );
    }
    chain.link(record);
    if (chain.head !== hash) {
      throw new BackupRefusedError(`${EVENTS_FILE} line ${number}: its hash does not match its contents`);
    }
  }
  if (chain.count !== manifest.events.count || chain.head !== manifest.events.chain.head) {
    throw new BackupRefusedError(
      `${EVENTS_FILE}: the chain ends at line ${chain.count}, not at the head the manifest names`,
    );
  }
}

const beyond = (line: BackupLine, until: RestorePoint | undefined) =>
  until !== undefined &&
  ('at' in until ? new Date(line.recordedAt) > until.at : line.position > until.position);

/**
 * The backup's events in log order, up to the restore point: the longest prefix of the log whose events all come at
 * or before it (recorded times are not monotonic along a Postgres log, so stopping at the first later one keeps what
 * is restored a prefix, every stream whole up to its last restored revision).
 */
async function* restoredEvents(
  from: string,
  manifest: Manifest,
  until: RestorePoint | undefined,
  cut: { count: number; lastPosition: string | null; lastRecordedAt: string | null },
): AsyncGenerator<RestoredEvent> {
  for await (const { line } of backupLines(from)) {
    if (beyond(line, until)) return;
    cut.count += 1;
    cut.lastPosition = line.position;
    cut.lastRecordedAt = line.recordedAt;
    yield {
      id: line.id,
      streamId: line.stream,
      revision: BigInt(line.revision),
      type: line.type,
      data: line.data,
      metadata: line.metadata,
      createdAt: new Date(line.recordedAt),
      globalPosition: manifest.eventStore === 'postgres' ? decodePosition(line.position)[1] : null,
    };
  }
}

/** A DATA_DIR that holds uploads, or a licence-key secret other than the backup's, belongs to another store. */
async function checkTargetFiles(dataDir: string, secretFile: string, secrets: BackupSecrets): Promise<void> {
  const uploads = join(dataDir, UPLOADS_DIR);
  if (existsSync(uploads) && (await readdir(uploads)).length > 0) {
    throw new BackupRefusedError(`the target is not empty: ${uploads} holds files`);
  }
  if (existsSync(secretFile) && (await readFile(secretFile, 'utf8')).trim() !== secrets.LICENCE_KEY_SECRET) {
    throw new BackupRefusedError(
      `the target is not empty: ${secretFile} holds another licence-key secret (another store's)`,
    );
  }
}

/** Refuses a database holding any event or any row of a kept table (before anything, migrations included, runs). */
async function checkTargetDatabase(pool: pg.Pool): Promise<void> {
  const { rows } = await pool.query<{ events: string | null }>(
    "SELECT to_regclass('event_store.events')::text AS events",
  );
  if (rows[0]?.events && !(await isEmptyPostgresLog(pool))) {
    throw new BackupRefusedError('the target is not empty: its event log holds events');
  }
  for (const table of KEPT_TABLES) {
    const exists = await pool.query<{ found: string | null }>('SELECT to_regclass($1)::text AS found', [
      table,
    ]);
    if (!exists.rows[0]?.found) continue;
    const { rows: held } = await pool.query(`SELECT 1 FROM ${table} LIMIT 1`);
    if (held.length > 0)
      throw new BackupRefusedError(`the target is not empty: its ${table} table holds rows`);
  }
}

/** The kept tables' rows as they were, in one transaction; columns by name, so a later migration's defaults fill in. */
async function restoreTables(pool: pg.Pool, file: string): Promise<Record<string, number>> {
  const contents = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown[]>;
  const client = await pool.connect();
  const counts: Record<string, number> = {};
  try {
    await client.query('BEGIN');
    for (const table of KEPT_TABLES) {
      const rows = contents[table] ?? [];
      await client.query(
        `INSERT INTO ${table} SELECT * FROM jsonb_populate_recordset(NULL::${table}, $1::jsonb)`,
        [JSON.stringify(rows)],
      );
      counts[table] = rows.length;
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
  return counts;
}

async function restoreUploads(from: string, manifest: Manifest, to: string): Promise<number> {
  if (manifest.uploads.kind !== 'local') return 0;
  for (const file of manifest.uploads.files) {
    const target = join(to, file.path);
    await mkdir(dirname(target), { recursive: true });
    await copyFile(join(from, UPLOADS_DIR, file.path), target);
  }
  return manifest.uploads.files.length;
}

/** Where `npm start` reads the licence-key secret when LICENCE_KEY_SECRET is not set (owner-only, as it makes it). */
async function writeSecret(file: string, secrets: BackupSecrets): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await chmod(dirname(file), 0o700);
  if (existsSync(file)) return;
  await writeFile(file, `${secrets.LICENCE_KEY_SECRET}\n`, { flag: 'wx', mode: 0o600 });
}
