import { randomFillSync } from 'node:crypto';

/** Ids drawn from one fill of the random source: filling it costs far more than the 16 bytes an id takes of it. */
const IDS_PER_FILL = 256;
const ID_BYTES = 16;
const random = Buffer.alloc(IDS_PER_FILL * ID_BYTES);
let next = IDS_PER_FILL;

/**
 * A new id for a record the store keeps: a UUID version 7 (RFC 9562), the time in milliseconds in its first 48
 * bits and 74 random bits after it. An index on such ids takes each new one beside the last, on a page already in
 * memory and already in the WAL since the last checkpoint; a random (version 4) id lands on any page of the index,
 * which a year of records makes a page read and a whole page written to the WAL for nearly every insert. The id
 * tells when it was made, to the millisecond, and nothing else: no access in this store rests on an id being
 * unguessable (signed tokens guard orders), and its random part still makes it unique. Not for an id whose first
 * characters name it to people (an order's number, a license key's label): ids minted within a minute share them.
 */
export function timeOrderedId(now: number = Date.now()): string {
  if (next === IDS_PER_FILL) {
    randomFillSync(random);
    next = 0;
  }
  const bytes = random.subarray(next * ID_BYTES, ++next * ID_BYTES);
  bytes.writeUIntBE(now, 0, 6);
  return uuidText(bytes, 7);
}

/**
 * The UUID (RFC 9562) of the first 16 of `bytes`, stamped with `version` and the RFC's variant, which take 6 of
 * its bits: in text, the hex digits in groups of 8, 4, 4, 4 and 12. It writes the stamps into `bytes`.
 */
export function uuidText(bytes: Buffer, version: number): string {
  bytes[6] = (version << 4) | ((bytes[6] ?? 0) & 0x0f);
  bytes[8] = 0x80 | ((bytes[8] ?? 0) & 0x3f);
  const hex = bytes.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
