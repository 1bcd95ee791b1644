// The audit export of a period: the log's events recorded in it as hash-chained lines and a signed manifest, as
// `npm run audit:export` writes them and the back office's export downloads them. Node-only (node:crypto).
import type { KeyObject } from 'node:crypto';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  type EventStore,
  type Position,
  type RecordedEvent,
  recordedOrThrow,
} from '@licensestore/domain/events';
import {
  auditRecord,
  exportHeader,
  genesisHash,
  HashChain,
  keyIdOf,
  type Manifest,
  signManifest,
} from '../audit-export/index.js';

/** Inclusive `from`, exclusive `to`, so consecutive ranges never share or miss an event. */
export interface ExportRange {
  from: Date;
  to: Date;
}

const READ_BATCH = 2000;

/**
 * The log in its own order (a reader's order: in Postgres, by transaction then position), keeping the events whose
 * recordedAt falls in the range. recordedAt is not monotonic along the log (Postgres stamps an event with its
 * transaction's start, and transactions commit out of order), so the whole log is read: stopping at the first
 * event past `to` could miss one that committed later with an earlier time.
 */
export async function* eventsRecordedIn(
  store: EventStore,
  { from, to }: ExportRange,
  batchSize = READ_BATCH,
): AsyncGenerator<RecordedEvent> {
  let after: Position | null = null;
  for (;;) {
    const batch = await store.readAll(after, batchSize);
    for (const entry of batch) {
      if (entry.createdAt >= from && entry.createdAt < to) yield recordedOrThrow(entry);
    }
    const last = batch.at(-1);
    if (!last || batch.length < batchSize) return;
    after = last.position;
  }
}

/**
 * Writes the events as NDJSON, one hash-chained line each (`seq` counts from 1), honouring the destination's
 * backpressure so a log of any size streams through in constant memory, and returns the signed manifest.
 */
export async function writeExport(options: {
  events: AsyncIterable<RecordedEvent>;
  range: ExportRange;
  exportedAt: Date;
  signingKey: KeyObject;
  out: Writable;
}): Promise<Manifest> {
  const header = exportHeader(options.range, options.exportedAt);
  const chain = new HashChain(genesisHash(header));
  let firstPosition: string | null = null;
  let lastPosition: string | null = null;
  await pipeline(async function* lines() {
    for await (const event of options.events) {
      firstPosition ??= event.position;
      lastPosition = event.position;
      yield `${chain.link({ seq: chain.count + 1, ...auditRecord(event) })}\n`;
    }
  }, options.out);
  return signManifest(
    {
      ...header,
      count: chain.count,
      firstPosition,
      lastPosition,
      genesis: chain.genesis,
      finalHash: chain.head,
      keyId: keyIdOf(options.signingKey),
    },
    options.signingKey,
  );
}
