import {
  type EventStore,
  isUnreadable,
  type LogEntry,
  type Position,
  type RecordedEvent,
  recordedOrThrow,
} from '@licensestore/domain/events';
import { canonicalJson } from '@licensestore/platform/audit-export';
import {
  decodePosition,
  openBareEventStore,
  RowDigest,
  rowReadBack,
} from '@licensestore/platform/eventstore';
import { type BackupLine, backupLines, backupRecord } from './format.js';

const READ_BATCH = 2000;

/** The restored log compared with the backup: how many events, and the first that differs (null when none does). */
export interface RestoredLogCheck {
  passed: boolean;
  events: number;
  difference: string | null;
  /** Whether the log was read a second time to compare it (false when the rebuild's read of it compared it). */
  readBack: boolean;
  /** The time the comparison itself took (beside the rebuild's own read of the log, when it rode on it). */
  durationMs: number;
}

/** A backup's parts as the check reads them: where each is, and the kind of store it came from. */
type Parts = Array<{ dir: string; manifest: { eventStore: 'postgres' | 'eventstoredb' } }>;

/**
 * What an event must read back as, without its position: id, stream, revision, type, recorded time, metadata and
 * data, canonical. A Postgres log's events keep their global position too (the transaction part of a position is
 * the restoring server's), so that is compared when the backup came from Postgres.
 */
const lineText = ({ seq, prev, hash, position, ...held }: BackupLine, positions: boolean) =>
  `${positions ? decodePosition(position)[1] : ''} ${canonicalJson(held)}`;

const eventText = (event: RecordedEvent, positions: boolean) => {
  const { position, ...held } = backupRecord(event);
  return `${positions ? decodePosition(position)[1] : ''} ${canonicalJson(held)}`;
};

/**
 * `store` (the bare adapter, reading events as they are stored) with every read of the whole log in one pass from
 * its start digested on the way, as the restore digested the rows it wrote, so the read that a rebuild makes anyway
 * checks the restored log too. A read that is not the next one of that pass (or an event that does not read) leaves
 * no digest: the check then reads the log itself.
 */
export class DigestingReads {
  readonly store: EventStore;
  private readonly digest = new RowDigest();
  private next: Position | null = null;
  private onePass = true;
  private spentMs = 0;

  constructor(bare: EventStore, positions: boolean) {
    this.store = {
      append: (stream, events, expected) => bare.append(stream, events, expected),
      readStream: (stream, fromRevision) => bare.readStream(stream, fromRevision),
      readLastEvent: (stream) => bare.readLastEvent(stream),
      subscribeAll: (after, signal) => bare.subscribeAll(after, signal),
      // A read of some types only is no part of the pass: it leaves the pass's digest as it is.
      readAllOfTypes: (after, limit, types) => bare.readAllOfTypes(after, limit, types),
      close: () => bare.close(),
      readAll: async (after, limit) => {
        const entries = await bare.readAll(after, limit);
        const started = performance.now();
        if (after !== this.next) this.onePass = false;
        for (const entry of entries) this.addEntry(entry, positions);
        this.next = entries.at(-1)?.position ?? this.next;
        this.spentMs += performance.now() - started;
        return entries;
      },
    };
  }

  private addEntry(entry: LogEntry, positions: boolean) {
    if (isUnreadable(entry)) this.onePass = false;
    else if (this.onePass) this.digest.add(rowReadBack(entry, positions));
  }

  /** The check, when the rebuild's reading made one: whether the log read back as the backup was written. */
  compareWith(written: RowDigest): RestoredLogCheck | null {
    if (!this.onePass) return null;
    const same = this.digest.rows === written.rows && this.digest.value === written.value;
    return same
      ? { passed: true, events: written.rows, difference: null, readBack: false, durationMs: this.spentMs }
      : null;
  }
}

/**
 * The restored log checked against the backup it was written from: from the rebuild's own read of it when that
 * read digested the rows written (`written`), otherwise (or when the digests differ, to name the first difference) by
 * reading the log back and comparing each event with its backup line, in the same order. The lines were checked
 * against the backup's hash chain before anything was written, so a log that passes is the backed-up log itself,
 * and the read models rebuilt from it are the store's (`npm run audit:verify` replays them a second time).
 */
export async function checkRestoredLog(
  databaseUrl: string,
  parts: Parts,
  written: RowDigest,
  reads: DigestingReads,
): Promise<RestoredLogCheck> {
  return reads.compareWith(written) ?? (await readBackRestoredLog(databaseUrl, parts, written.rows));
}

/** Reads the restored log back through the event store, unchanged (no upcasting), event by event against the lines. */
export async function readBackRestoredLog(
  databaseUrl: string,
  parts: Parts,
  restored: number,
): Promise<RestoredLogCheck> {
  const started = performance.now();
  const store = await openBareEventStore({ databaseUrl });
  const result = (events: number, difference: string | null): RestoredLogCheck => ({
    passed: difference === null,
    events,
    difference,
    readBack: true,
    durationMs: performance.now() - started,
  });
  try {
    let after: Position | null = null;
    let batch: LogEntry[] = [];
    let next = 0;
    const read = async () => {
      if (next === batch.length) {
        batch = await store.readAll(after, READ_BATCH);
        next = 0;
      }
      const entry = batch[next++];
      return entry === undefined ? null : recordedOrThrow(entry);
    };
    let events = 0;
    for (const { dir, manifest } of parts) {
      const positions = manifest.eventStore === 'postgres';
      for await (const { line } of backupLines(dir)) {
        if (events === restored) break;
        const event = await read();
        if (event === null) return result(events, `the log ends after ${events} events, not ${restored}`);
        after = event.position;
        events += 1;
        if (eventText(event, positions) !== lineText(line, positions)) {
          return result(
            events,
            `event ${events} (${line.id}, ${line.stream}) reads back unlike its backup line`,
          );
        }
      }
    }
    if ((await read()) !== null)
      return result(events, `the log holds more than the ${restored} events restored`);
    return result(events, null);
  } finally {
    await store.close();
  }
}
