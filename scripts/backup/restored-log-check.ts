import { canonicalJson } from '@licensestore/shared/audit-export';
import {
  decodePosition,
  type LogEntry,
  openBareEventStore,
  type Position,
  recordedOrThrow,
} from '@licensestore/shared/eventstore';
import { type BackupLine, backupLines, backupRecord } from './format.js';

const READ_BATCH = 2000;

/** The restored log compared with the backup: how many events, and the first that differs (null when none does). */
export interface RestoredLogCheck {
  passed: boolean;
  events: number;
  difference: string | null;
  durationMs: number;
}

/** An event as the log holds it, without its position: what must read back exactly as its backup line holds it. */
const heldAs = ({ seq, prev, hash, position, ...held }: BackupLine) => canonicalJson(held);

/**
 * Reads the restored log back through the event store, unchanged (no upcasting), and compares each event with the
 * backup line it was written from: id, stream, revision, type, recorded time, metadata and data, in the same order,
 * and from a Postgres backup the same global position. The lines were checked against the backup's hash chain
 * before anything was written, so a log that passes is the backed-up log itself, the read models rebuilt from it
 * are the store's, and the check costs one read of the log rather than a second replay into every projector
 * (`npm run audit:verify` does that, any time after).
 */
export async function checkRestoredLog(
  databaseUrl: string,
  parts: Array<{ dir: string; manifest: { eventStore: 'postgres' | 'eventstoredb' } }>,
  restored: number,
): Promise<RestoredLogCheck> {
  const started = performance.now();
  const store = await openBareEventStore({ databaseUrl });
  const result = (events: number, difference: string | null): RestoredLogCheck => ({
    passed: difference === null,
    events,
    difference,
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
      for await (const { line } of backupLines(dir)) {
        if (events === restored) break;
        const event = await read();
        if (event === null) return result(events, `the log ends after ${events} events, not ${restored}`);
        after = event.position;
        events += 1;
        const { position, ...record } = backupRecord(event);
        const samePosition =
          manifest.eventStore !== 'postgres' ||
          decodePosition(position)[1] === decodePosition(line.position)[1];
        if (!samePosition || canonicalJson(record) !== heldAs(line)) {
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
