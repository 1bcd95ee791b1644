import { existsSync } from 'node:fs';
import { chmod, copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, normalize, sep } from 'node:path';
import { eventVersions, versionedEventStore } from '@licensestore/domain/events';
import { HashChain } from '@licensestore/platform/audit-export';
import { openDatabase } from '@licensestore/platform/db';
import {
  decodePosition,
  encodePosition,
  isEmptyPostgresLog,
  openBareEventStore,
  type RestoredEvent,
  RowDigest,
  writeRestoredEvents,
} from '@licensestore/platform/eventstore';
import type { Logger } from '@licensestore/platform/logging';
import type pg from 'pg';
import { allProjectors } from '../../projections/src/projectors.js';
import { type RebuildResult, rebuildProjectors } from '../../projections/src/rebuild.js';
import { prepareStore } from '../lib/prepare.js';
import { LICENSE_KEY_SECRET_FILE, secretsDir } from '../lib/secrets.js';
import {
  type BackupLine,
  BackupRefusedError,
  backupGenesis,
  backupLines,
  checkedBackupLines,
  EVENTS_FILE,
  KEPT_TABLES,
  MANIFEST_FILE,
  type Manifest,
  readManifest,
  SECRETS_FILE,
  type Since,
  sha256OfFile,
  sinceOf,
  TABLES_FILE,
  UPLOADS_DIR,
} from './format.js';
import { checkRestoredLog, DigestingReads, type RestoredLogCheck } from './restored-log-check.js';
import { type BackupSecrets, type OpeningKey, openSecrets } from './sealed-secrets.js';

/** Where a restore stops: after the last event recorded at or before a time, or at a position of the backup's log. */
export type RestorePoint = { at: Date } | { position: string };

/** One directory of a backup: a full backup, or an increment going on from the part before it. */
export interface BackupPart {
  dir: string;
  manifest: Manifest;
}

/**
 * A backup whose manifests, files, chain and passphrase have been checked, its secrets open: a full backup and the
 * increments that go on from it, in order.
 */
export interface CheckedBackup {
  parts: BackupPart[];
  /** Where the last part, and so the whole backup, ends: its time, head position, event count and chain head. */
  head: Since;
  secrets: BackupSecrets;
}

export interface RestoreOptions {
  backup: CheckedBackup;
  until?: RestorePoint | undefined;
  /** The empty database to restore into (event log and tables). */
  databaseUrl: string;
  /** The DATA_DIR of the store that will run on it: its license-key secret and uploads go there. */
  dataDir: string;
  log: Logger;
}

export interface RestoreSummary {
  backup: CheckedBackup;
  /** The parts the restore read events, tables and images from: all, unless `until` stopped it earlier. */
  partsUsed: number;
  events: number;
  lastPosition: string | null;
  lastRecordedAt: string | null;
  tables: Record<string, number>;
  uploads: number;
  secretFile: string;
  rebuilt: RebuildResult[];
  /** The restored log compared with the backup it came from, as the rebuild read it (or read back when that differs). */
  verify: RestoredLogCheck;
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
 * The backup in `dirs`, checked before any target is touched: a full backup and its increments in order, or a
 * folder `backup --follow` fills (its last full backup and the increments after it). Checked are each manifest and
 * its format version, that each increment goes on from the part before, each file's SHA-256 (naming the file that
 * differs), the chain over the events (naming the line), that every image is held by some part, and the passphrase
 * (or the recipient's private key).
 */
export async function openBackup(dirs: string | string[], key: OpeningKey): Promise<CheckedBackup> {
  const parts: BackupPart[] = [];
  for (const dir of typeof dirs === 'string' ? [dirs] : dirs) parts.push(...(await partsIn(dir)));
  checkSequence(parts);
  for (const part of parts) {
    await checkFiles(part);
    await checkChain(part);
  }
  // Finding every image's holder through the last part checks each part's listing on the way.
  imageSources(parts, parts.length - 1);
  const [full] = parts as [BackupPart];
  const secrets = await openSecrets(await readFile(join(full.dir, SECRETS_FILE), 'utf8'), key);
  return { parts, head: sinceOf((parts.at(-1) as BackupPart).manifest), secrets };
}

/**
 * A backup directory is one part; a folder of parts (as `backup --follow` keeps them, named in order) gives its
 * last full backup and every part after it. Folders starting with a dot are parts still being written, not parts.
 */
async function partsIn(dir: string): Promise<BackupPart[]> {
  if (existsSync(join(dir, MANIFEST_FILE)) || !existsSync(dir)) {
    return [{ dir, manifest: await readManifest(dir) }];
  }
  const names = (await readdir(dir, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .map((entry) => entry.name)
    .filter((name) => existsSync(join(dir, name, MANIFEST_FILE)))
    .sort();
  const parts: BackupPart[] = [];
  for (const name of names)
    parts.push({ dir: join(dir, name), manifest: await readManifest(join(dir, name)) });
  const lastFull = parts.findLastIndex((part) => part.manifest.kind === 'full');
  if (parts.length === 0) throw new BackupRefusedError(`${dir} holds no backup`);
  return lastFull === -1 ? parts : parts.slice(lastFull);
}

/** A full backup first, then increments each going on from exactly where the part before it ends. */
function checkSequence(parts: BackupPart[]): void {
  const [first, ...rest] = parts;
  if (first?.manifest.kind !== 'full') {
    throw new BackupRefusedError(
      `${first?.dir} is an increment: restore it after the full backup it goes on from and the increments between`,
    );
  }
  let previous = first;
  for (const part of rest) {
    const expected = sinceOf(previous.manifest);
    const since = part.manifest.since;
    if (
      part.manifest.kind !== 'increment' ||
      since === null ||
      since.createdAt !== expected.createdAt ||
      since.lastPosition !== expected.lastPosition ||
      since.count !== expected.count ||
      since.chainHead !== expected.chainHead
    ) {
      throw new BackupRefusedError(`${part.dir} does not go on from ${previous.dir}, the part before it`);
    }
    if (part.manifest.eventStore !== first.manifest.eventStore) {
      throw new BackupRefusedError(`${part.dir} is of another event store than ${first.dir}`);
    }
    previous = part;
  }
}

/**
 * Brings a checked backup back into an empty store. Before anything is written, the target must hold no event, no
 * kept row, no upload and no other license-key secret. Then the log goes back as it was (up to `until`), then the
 * kept tables, uploads and the secret; every read model is rebuilt from the log, whose read is compared with the
 * backup on the way.
 */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreSummary> {
  const started = performance.now();
  const { parts, secrets } = options.backup;
  const secretFile = join(secretsDir(options.dataDir), LICENSE_KEY_SECRET_FILE);
  await checkTargetFiles(options.dataDir, secretFile, secrets);

  // The pool size a one-pass rebuild opens: one connection holds its locks while each projector writes on its own.
  const database = openDatabase(options.databaseUrl, { max: allProjectors.length + 2 });
  try {
    await checkTargetDatabase(database.pool);
    await prepareStore({
      databaseUrl: options.databaseUrl,
      licenseKeySecret: secrets.LICENCE_KEY_SECRET,
      seedDemo: false,
      log: () => {},
    });
    const eventsStarted = performance.now();
    const cut: Cut = { count: 0, lastPosition: null, lastRecordedAt: null, lastPart: 0 };
    const positions = parts[0]?.manifest.eventStore === 'postgres';
    const written = new RowDigest();
    await writeRestoredEvents(database.pool, restoredEvents(parts, options.until, cut), written);
    // Bulk-written rows have no statistics and no visibility map yet: the rebuild that reads them all would pay for both.
    await database.pool.query('VACUUM (ANALYZE) event_store.events');
    const eventsMs = performance.now() - eventsStarted;
    // The kept tables and images as the last part the restore reached holds them: they have no history to cut.
    const reached = parts[cut.lastPart] as BackupPart;
    const tables = await restoreTables(database.pool, join(reached.dir, TABLES_FILE));
    const uploads = await restoreUploads(
      imageSources(parts, cut.lastPart),
      join(options.dataDir, UPLOADS_DIR),
    );
    await writeSecret(secretFile, secrets);

    // Read as the roles will read it (upcast), so the read models are what the restored store would build; the
    // rebuild's one read of the log, taken as it is stored, checks it against the backup on the way.
    const reads = new DigestingReads(
      await openBareEventStore({ databaseUrl: options.databaseUrl }),
      positions,
    );
    const store = versionedEventStore(reads.store, eventVersions);
    try {
      const rebuilt = await rebuildProjectors({
        db: database.db,
        pool: database.pool,
        store,
        projectors: allProjectors,
        log: options.log,
      });
      const verify = await checkRestoredLog(options.databaseUrl, parts, written, reads);
      return {
        backup: options.backup,
        partsUsed: cut.lastPart + 1,
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

/** Each file's SHA-256 against its manifest's, naming the first that differs. */
async function checkFiles({ dir, manifest }: BackupPart): Promise<void> {
  const files: Array<{ path: string; sha256: string }> = [
    { path: manifest.events.file, sha256: manifest.events.sha256 },
    { path: manifest.tables.file, sha256: manifest.tables.sha256 },
    ...(manifest.secrets ? [{ path: manifest.secrets.file, sha256: manifest.secrets.sha256 }] : []),
    ...(manifest.uploads.kind === 'local'
      ? manifest.uploads.files
          .filter((file) => file.copied)
          .map((file) => ({ path: join(UPLOADS_DIR, file.path), sha256: file.sha256 }))
      : []),
  ];
  for (const file of files) {
    // An image's path comes from the manifest: one that leads out of the backup would lead out of DATA_DIR too.
    if (isAbsolute(file.path) || normalize(file.path).split(sep).includes('..')) {
      throw new BackupRefusedError(`part ${file.path} names a place outside the backup`);
    }
    const path = join(dir, file.path);
    if (!existsSync(path)) throw new BackupRefusedError(`part ${path} is missing from the backup`);
    if ((await sha256OfFile(path)) !== file.sha256) {
      throw new BackupRefusedError(`part ${path} does not match its SHA-256 in the manifest`);
    }
  }
}

/**
 * Where each image `parts[upTo]` lists has its bytes: that part, or the latest earlier one holding the same contents.
 * One pass over the parts, each part's listing checked on the way, so an image some part lists but none holds is
 * refused, naming that part.
 */
function imageSources(parts: BackupPart[], upTo: number): Map<string, string> {
  const held = new Map<string, string>();
  const heldAs = (file: { path: string; sha256: string }) => `${file.sha256} ${file.path}`;
  let sources = new Map<string, string>();
  for (const { dir, manifest } of parts.slice(0, upTo + 1)) {
    sources = new Map();
    if (manifest.uploads.kind !== 'local') continue;
    for (const file of manifest.uploads.files) {
      if (file.copied) held.set(heldAs(file), join(dir, UPLOADS_DIR, file.path));
    }
    for (const file of manifest.uploads.files) {
      const holder = held.get(heldAs(file));
      if (!holder)
        throw new BackupRefusedError(`image ${file.path} of ${dir} is held by no part of the backup`);
      sources.set(file.path, holder);
    }
  }
  return sources;
}

/**
 * The chain over a part's event lines: from the genesis a full backup's header gives, or from the head of the part an
 * increment goes on from, to the head its manifest names, its lines numbered on from the events before it.
 */
async function checkChain({ dir, manifest }: BackupPart): Promise<void> {
  const file = join(dir, EVENTS_FILE);
  const genesis =
    manifest.since?.chainHead ??
    backupGenesis({
      format: manifest.format,
      formatVersion: manifest.formatVersion,
      createdAt: manifest.createdAt,
    });
  if (genesis !== manifest.events.chain.genesis) {
    throw new BackupRefusedError(`${file}: the chain's genesis does not match the manifest's header`);
  }
  const before = manifest.since?.count ?? 0;
  const chain = new HashChain(genesis);
  for await (const { line, number } of backupLines(dir)) {
    const { prev, hash, ...record } = line;
    if (prev !== chain.head || record.seq !== before + number) {
      throw new BackupRefusedError(`${file} line ${number}: breaks the chain (a line missing or moved)`);
    }
    chain.link(record);
    if (chain.head !== hash) {
      throw new BackupRefusedError(`${file} line ${number}: its hash does not match its contents`);
    }
  }
  if (chain.count !== manifest.events.count || chain.head !== manifest.events.chain.head) {
    throw new BackupRefusedError(
      `${file}: the chain ends at line ${chain.count}, not at the head the manifest names`,
    );
  }
}

const beyond = (line: BackupLine, until: RestorePoint | undefined) =>
  until !== undefined &&
  ('at' in until ? new Date(line.recordedAt) > until.at : line.position > until.position);

/** How far a restore went: events written, the last one's position and time, and the last part it reached. */
interface Cut {
  count: number;
  lastPosition: string | null;
  lastRecordedAt: string | null;
  lastPart: number;
}

/**
 * The backup's events in log order, part after part, up to the restore point: the longest prefix of the log whose
 * events all come at or before it (recorded times are not monotonic along a Postgres log, so stopping at the first
 * later one keeps what is restored a prefix, every stream whole up to its last restored revision). The lines are
 * not checked one by one again: each part's bytes must still be those `openBackup` checked.
 */
async function* restoredEvents(
  parts: BackupPart[],
  until: RestorePoint | undefined,
  cut: Cut,
): AsyncGenerator<RestoredEvent> {
  for (const [index, { dir, manifest }] of parts.entries()) {
    let reached = false;
    // The part is read to its end even past the restore point, so that its bytes are known to be the checked ones.
    for await (const line of checkedBackupLines(dir, manifest.events.sha256)) {
      reached ||= beyond(line, until);
      if (reached) continue;
      cut.count += 1;
      cut.lastPosition = line.position;
      cut.lastRecordedAt = line.recordedAt;
      cut.lastPart = index;
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
    if (reached) return;
    // A part with nothing past the restore point is reached whole, an increment holding no event included.
    cut.lastPart = index;
  }
}

/** A DATA_DIR that holds uploads, or a license-key secret other than the backup's, belongs to another store. */
async function checkTargetFiles(dataDir: string, secretFile: string, secrets: BackupSecrets): Promise<void> {
  const uploads = join(dataDir, UPLOADS_DIR);
  if (existsSync(uploads) && (await readdir(uploads)).length > 0) {
    throw new BackupRefusedError(`the target is not empty: ${uploads} holds files`);
  }
  if (existsSync(secretFile) && (await readFile(secretFile, 'utf8')).trim() !== secrets.LICENCE_KEY_SECRET) {
    throw new BackupRefusedError(
      `the target is not empty: ${secretFile} holds another license-key secret (another store's)`,
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

async function restoreUploads(sources: Map<string, string>, to: string): Promise<number> {
  for (const [path, source] of sources) {
    const target = join(to, path);
    await mkdir(dirname(target), { recursive: true });
    await copyFile(source, target);
  }
  return sources.size;
}

/** Where `npm start` reads the license-key secret when LICENSE_KEY_SECRET is not set (owner-only, as it makes it). */
async function writeSecret(file: string, secrets: BackupSecrets): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await chmod(dirname(file), 0o700);
  if (existsSync(file)) return;
  await writeFile(file, `${secrets.LICENCE_KEY_SECRET}\n`, { flag: 'wx', mode: 0o600 });
}
