import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type BackupOptions, type BackupSummary, takeBackup, takeIncrementIfChanged } from './backup.js';
import { MANIFEST_FILE, readManifest, syncToDisk } from './format.js';

/** A part is a directory named by its number in the folder, so the names sort in the order the parts were taken. */
export const PART_NAME = /^(\d{8})-(full|increment)$/;
/** Where a part is written before it is complete: a dot-name, which a restore never takes for a part. */
const INCOMING = '.incoming';

export interface FollowOptions extends Omit<BackupOptions, 'out' | 'since' | 'now'> {
  /** The folder of parts: a full backup, then increments, then another full backup when `fullEveryMs` has passed. */
  dir: string;
  /** How often the log is looked at for new events: the most a machine's sudden death can cost. */
  everyMs: number;
  fullEveryMs: number;
  signal: AbortSignal;
  onPart: (part: { dir: string; summary: BackupSummary }) => void;
  /**
   * Copies the folder's whole parts elsewhere (an S3 bucket) after every turn, whether or not it wrote a part, so
   * that what one turn failed to copy the next one copies.
   */
  ship?: (dir: string) => Promise<void>;
  /** A backup or a copy that failed (Postgres restarting, a full disk, the network): the next turn tries again. */
  onError: (error: unknown) => void;
}

interface LastPart {
  number: number;
  dir: string;
  fullAt: number;
}

/**
 * Keeps a folder of backup parts beside the running store until `signal` aborts: a full backup, then every
 * `everyMs` an increment of what came after the last part (none when nothing did), each written under a dot-name,
 * flushed to disk and then renamed into place, so the folder only ever holds whole parts. A new full backup is taken
 * after `fullEveryMs`, bounding how many parts a restore reads. Started again on the same folder, it goes on after
 * the last whole part and drops what a killed run left half-written.
 */
export async function followBackups(options: FollowOptions): Promise<void> {
  await mkdir(options.dir, { recursive: true, mode: 0o700 });
  await rm(join(options.dir, INCOMING), { recursive: true, force: true });
  let last = await lastPart(options.dir);
  while (!options.signal.aborted) {
    try {
      last = (await nextPart(options, last)) ?? last;
    } catch (error) {
      options.onError(error);
    }
    if (options.ship) await options.ship(options.dir).catch(options.onError);
    await sleep(options.everyMs, undefined, { signal: options.signal }).catch(() => {});
  }
}

async function nextPart(options: FollowOptions, last: LastPart | null): Promise<LastPart | null> {
  const now = Date.now();
  const full = last === null || now - last.fullAt >= options.fullEveryMs;
  const incoming = join(options.dir, INCOMING);
  const backup = { ...options, out: incoming };
  const summary = full
    ? await takeBackup(backup)
    : await takeIncrementIfChanged({ ...backup, since: last.dir });
  if (summary === null) return null;
  const number = (last?.number ?? 0) + 1;
  const dir = join(options.dir, `${String(number).padStart(8, '0')}-${summary.manifest.kind}`);
  await rename(incoming, dir);
  await syncToDisk(options.dir);
  options.onPart({ dir, summary });
  return { number, dir, fullAt: full ? now : (last?.fullAt ?? now) };
}

/** The names of the folder's whole parts (those with a manifest), in the order they were taken. */
export async function wholePartNames(dir: string): Promise<string[]> {
  return (await readdir(dir))
    .filter((name) => PART_NAME.test(name) && existsSync(join(dir, name, MANIFEST_FILE)))
    .sort();
}

async function lastPart(dir: string): Promise<LastPart | null> {
  const names = await wholePartNames(dir);
  const name = names.at(-1);
  if (name === undefined) return null;
  const lastFull = names.findLast((candidate) => candidate.endsWith('-full'));
  const fullAt = lastFull ? Date.parse((await readManifest(join(dir, lastFull))).createdAt) : 0;
  return { number: Number(PART_NAME.exec(name)?.[1]), dir: join(dir, name), fullAt };
}
