import type { RecordedEvent } from '@licensestore/domain/events';
import { sealedKeySchema } from '@licensestore/domain/license-keys';
import { sha256Hex } from './hash-chain.js';

/**
 * Every sealed license key replaced by the SHA-256 of its sealed text. An export leaves the store (an auditor's
 * laptop, e-mail), and sealed keys in it would be readable by whoever later gets the license-key secret; the digest
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
