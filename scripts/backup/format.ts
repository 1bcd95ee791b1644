import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { RecordedEvent } from '@licensestore/domain/events';
import { canonicalJson, sha256Hex } from '@licensestore/platform/audit-export';
import { z } from 'zod';

/** The backup format this code writes and reads; a backup of another version is refused, not guessed at. */
export const BACKUP_FORMAT = 'licensestore-backup';
export const BACKUP_FORMAT_VERSION = 1;

export const MANIFEST_FILE = 'manifest.json';
export const EVENTS_FILE = 'events.ndjson';
export const TABLES_FILE = 'tables.json';
export const SECRETS_FILE = 'secrets.enc';
export const UPLOADS_DIR = 'uploads';

/** The tables the store keeps outside the log, in the order a restore fills them (ADR 040 says why only these). */
export const KEPT_TABLES = ['admin_users', 'audit_verifications', 'testimonials'] as const;
export type KeptTable = (typeof KEPT_TABLES)[number];

/** A refusal of a restore (or a backup): nothing was changed, and the message says why. */
export class BackupRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupRefusedError';
  }
}

const sha256 = z.string().regex(/^[0-9a-f]{64}$/);

/** Where an increment's log takes up: the part before it (a full backup or an increment), as that part ended. */
export const sinceSchema = z.object({
  createdAt: z.iso.datetime(),
  lastPosition: z.string().nullable(),
  /** Events in the whole chain up to and including that part: this part's first line is the next one. */
  count: z.number().int().nonnegative(),
  chainHead: sha256,
});
export type Since = z.infer<typeof sinceSchema>;

export const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  formatVersion: z.number().int(),
  createdAt: z.iso.datetime(),
  /**
   * A full backup holds the log from its start; an increment holds only the events after `since`, its chain going on
   * from that part's head, with the kept tables whole (they are small) and the images not already in an earlier part.
   */
  kind: z.enum(['full', 'increment']),
  since: sinceSchema.nullable(),
  /** The kind of event store the log came from: Postgres positions can be kept on restore, EventStoreDB's cannot. */
  eventStore: z.enum(['postgres', 'eventstoredb']),
  events: z.object({
    file: z.literal(EVENTS_FILE),
    sha256,
    /** The events in this part; lines are numbered on from `since.count`. */
    count: z.number().int().nonnegative(),
    firstPosition: z.string().nullable(),
    /** The head: the backup holds exactly the log up to and including it. */
    lastPosition: z.string().nullable(),
    /**
     * The chain over the event lines (the audit export's): the genesis (from a full backup's header, or the head of the
     * part an increment continues) and the last hash.
     */
    chain: z.object({ genesis: sha256, head: sha256 }),
  }),
  tables: z.object({
    file: z.literal(TABLES_FILE),
    sha256,
    rows: z.record(z.string(), z.number().int().nonnegative()),
  }),
  uploads: z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('local'),
      /** Every image the store held; `copied` when this part holds its bytes, else an earlier part of the chain does. */
      files: z.array(z.object({ path: z.string(), bytes: z.number().int(), sha256, copied: z.boolean() })),
    }),
    z.object({
      kind: z.literal('s3'),
      bucket: z.string(),
      endpoint: z.string().nullable(),
      region: z.string(),
      note: z.string(),
    }),
  ]),
  /** In a full backup only: an increment is restored with the full backup it goes on from. */
  secrets: z
    .object({
      file: z.literal(SECRETS_FILE),
      sha256,
      /** What the encrypted part holds, by name (never the values). */
      holds: z.array(z.string()),
    })
    .nullable(),
});
export type Manifest = z.infer<typeof manifestSchema>;

/** What the part after this one records as its `since`: where this part, and so the chain up to it, ends. */
export const sinceOf = (manifest: Manifest): Since => ({
  createdAt: manifest.createdAt,
  lastPosition: manifest.events.lastPosition,
  count: (manifest.since?.count ?? 0) + manifest.events.count,
  chainHead: manifest.events.chain.head,
});

/** A part's manifest, parsed and of this code's format version; a refusal naming what is wrong otherwise. */
export async function readManifest(dir: string): Promise<Manifest> {
  let text: string;
  try {
    text = await readFile(join(dir, MANIFEST_FILE), 'utf8');
  } catch {
    throw new BackupRefusedError(`${join(dir, MANIFEST_FILE)} cannot be read: ${dir} is not a backup`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new BackupRefusedError(`${join(dir, MANIFEST_FILE)} is not JSON`);
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    throw new BackupRefusedError(
      `${join(dir, MANIFEST_FILE)} is not a ${BACKUP_FORMAT} manifest (${parsed.error.message})`,
    );
  }
  if (parsed.data.formatVersion !== BACKUP_FORMAT_VERSION) {
    throw new BackupRefusedError(
      `${join(dir, MANIFEST_FILE)}: format version ${parsed.data.formatVersion}; this code reads version ${BACKUP_FORMAT_VERSION}`,
    );
  }
  return parsed.data;
}

/**
 * Flushes a written file (or directory) to the disk: a backup part counts as shipped only once a machine that dies
 * the next instant still holds it.
 */
export async function syncToDisk(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** A full backup's chain genesis: commits to what the backup is and when it was taken. */
export const backupGenesis = (header: { format: string; formatVersion: number; createdAt: string }) =>
  sha256Hex(canonicalJson(header));

/** One event as a backup line holds it, before `seq`, `prev` and `hash`: everything the log recorded, data as stored. */
export const backupRecord = (event: RecordedEvent) => ({
  position: event.position,
  stream: event.streamId,
  revision: event.revision.toString(),
  id: event.id,
  type: event.type,
  recordedAt: event.createdAt.toISOString(),
  metadata: event.metadata,
  data: event.data,
});

export const backupLineSchema = z.object({
  seq: z.number().int().positive(),
  position: z.string(),
  stream: z.string(),
  revision: z.string().regex(/^\d+$/),
  id: z.string(),
  type: z.string(),
  recordedAt: z.iso.datetime(),
  metadata: z.record(z.string(), z.unknown()),
  data: z.unknown(),
  prev: sha256,
  hash: sha256,
});
export type BackupLine = z.infer<typeof backupLineSchema>;

export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** A part's event lines in order, each parsed and numbered from 1; a line that does not parse is refused by number. */
export async function* backupLines(dir: string): AsyncGenerator<{ line: BackupLine; number: number }> {
  const file = join(dir, EVENTS_FILE);
  let number = 0;
  for await (const text of textLines(file)) {
    number += 1;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new BackupRefusedError(`${file} line ${number}: not JSON`);
    }
    const parsed = backupLineSchema.safeParse(json);
    if (!parsed.success) throw new BackupRefusedError(`${file} line ${number}: not a backup line`);
    yield { line: parsed.data, number };
  }
}

/**
 * A part's event lines once `backupLines` has checked them all, read again without checking each line's shape: the
 * file's bytes are hashed on the way and must still be the checked file's (`sha256`, its manifest's) when the last
 * line has been read, or the read fails there: what was taken from the file came from one that changed after it was
 * checked.
 */
export async function* checkedBackupLines(dir: string, sha256: string): AsyncGenerator<BackupLine> {
  const file = join(dir, EVENTS_FILE);
  const hash = createHash('sha256');
  for await (const text of textLines(file, hash)) yield JSON.parse(text) as BackupLine;
  if (hash.digest('hex') !== sha256) {
    throw new Error(
      `${file} changed after it was checked: the restore stopped, and what it wrote of the log is not to be trusted`,
    );
  }
}

/** A file's non-empty lines, its bytes handed to `hash` on the way when one is given. */
async function* textLines(file: string, hash?: Hash): AsyncGenerator<string> {
  const input = createReadStream(file);
  if (hash) input.on('data', (chunk) => hash.update(chunk));
  for await (const text of createInterface({ input, crlfDelay: Infinity })) {
    if (text !== '') yield text;
  }
}
