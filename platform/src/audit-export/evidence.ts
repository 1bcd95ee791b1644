import type { KeyObject } from 'node:crypto';
import type { RecordedEvent } from '@licensestore/domain/events';
import { HashChain } from './hash-chain.js';
import { EVIDENCE_FORMAT, genesisHash, keyIdOf, type Manifest, signManifest } from './manifest.js';
import { auditRecord } from './record.js';

/** The NDJSON file and its manifest inside an evidence pack, by the names `audit:check-export` looks for. */
export const EVIDENCE_EVENTS_FILE = 'events.ndjson';
export const EVIDENCE_MANIFEST_FILE = `${EVIDENCE_EVENTS_FILE}.manifest.json`;

const byPosition = (a: RecordedEvent, b: RecordedEvent) =>
  a.position < b.position ? -1 : a.position > b.position ? 1 : 0;

/**
 * One order's events as an audit export has them (hash-chained canonical lines, sealed keys as digests, a signed
 * manifest), in log order, so `npm run audit:check-export` proves the pack's file as it proves an export. The
 * range runs from the earliest event's time to just after the latest (or the moment of export when there is
 * none): every line is inside it, as the check requires. An order holds few events, so the file is built in memory.
 */
export function evidenceEvents(options: {
  orderId: string;
  events: readonly RecordedEvent[];
  exportedAt: Date;
  signingKey: KeyObject;
}): { ndjson: string; manifest: Manifest } {
  const events = [...options.events].sort(byPosition);
  const times = events.map((event) => event.createdAt.getTime());
  const from = new Date(times.length > 0 ? Math.min(...times) : options.exportedAt.getTime());
  const to = new Date(times.length > 0 ? Math.max(...times) + 1 : options.exportedAt.getTime());
  const header = {
    format: EVIDENCE_FORMAT,
    orderId: options.orderId,
    from: from.toISOString(),
    to: to.toISOString(),
    exportedAt: options.exportedAt.toISOString(),
  } as const;
  const chain = new HashChain(genesisHash(header));
  const lines = events.map((event) => `${chain.link({ seq: chain.count + 1, ...auditRecord(event) })}\n`);
  const manifest = signManifest(
    {
      ...header,
      count: chain.count,
      firstPosition: events[0]?.position ?? null,
      lastPosition: events.at(-1)?.position ?? null,
      genesis: chain.genesis,
      finalHash: chain.head,
      keyId: keyIdOf(options.signingKey),
    },
    options.signingKey,
  );
  return { ndjson: lines.join(''), manifest };
}
