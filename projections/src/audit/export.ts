import type { KeyObject } from 'node:crypto';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sealedKeySchema } from '@licensestore/shared';
import { type EventStore, type RecordedEvent, recordedOrThrow } from '@licensestore/shared/eventstore';
import { readBatches } from '../read-batches.js';
import { HashChain, sha256Hex } from './hash-chain.js';
import { exportHeader, genesisHash, keyIdOf, type Manifest, signManifest } from './manifest.js';

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
  for await (const batch of readBatches(store, null, batchSize)) {
    for (const entry of batch) {
      if (entry.createdAt >= from && entry.createdAt < to) yield recordedOrThrow(entry);
    }
  }
}

/**
 * Every sealed licence key replaced by the SHA-256 of its sealed text. An export leaves the store (an auditor's
 * laptop, e-mail), and sealed keys in it would be readable by whoever later gets the licence-key secret; the digest
 * reveals nothing, needs no secret to compute, and still lets someone with access to the store match the line
 * against the stored event. Matching the sealed form, not field names, also covers event types added later.
 */
export function withoutSealedKeys(value: unknown): unknown {
  if (typeof value === 'string') {
    // The prefix test spares the schema (slow next to it) every string that cannot be a sealed key.
    const sealed = value.startsWith('v1.') && sealedKeySchema.safeParse(value).success;
    return sealed ? `sealed-key:sha256:${sha256Hex(value)}` : value;
  }
  if (Array.isArray(value)) return value.map(withoutSealedKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, withoutSealedKeys(item)]));
  }
  return value;
}

/** One event as an export line holds it, before `seq`, `prev` and `hash` are added. */
export const auditRecord = (event: RecordedEvent) => ({
  position: event.position,
  stream: event.streamId,
  revision: Number(event.revision),
  id: event.id,
  type: event.type,
  recordedAt: event.createdAt.toISOString(),
  metadata: event.metadata,
  data: withoutSealedKeys(event.data),
});

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
