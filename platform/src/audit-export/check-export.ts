import type { KeyObject } from 'node:crypto';
import { z } from 'zod';
import { lineHash } from './hash-chain.js';
import {
  genesisHash,
  keyIdOf,
  type Manifest,
  manifestSchema,
  sha256Schema,
  signatureHolds,
} from './manifest.js';

/** `line` is the first bad line (1-based); null when the manifest itself is at fault. */
export type CheckFailure = { ok: false; line: number | null; reason: string };
export type CheckResult =
  | {
      ok: true;
      count: number;
      firstPosition: string | null;
      lastPosition: string | null;
      keyId: string;
      /** The order of an evidence pack; absent for an export of a period. */
      orderId?: string;
    }
  | CheckFailure;

const fail = (line: number | null, reason: string): CheckFailure => ({ ok: false, line, reason });
const fieldsAmiss = (error: z.ZodError) => error.issues.map((issue) => issue.path.join('.')).join(', ');

/** The fields the check relies on; the rest of a line is covered by its hash. */
const lineSchema = z
  .object({
    seq: z.number().int().positive(),
    position: z.string(),
    recordedAt: z.iso.datetime(),
    prev: sha256Schema,
    hash: sha256Schema,
  })
  .loose();

/** The manifest, once its signature holds under the trusted key. */
export function verifiedManifest(
  json: unknown,
  publicKey: KeyObject,
): { ok: true; manifest: Manifest } | CheckFailure {
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    return fail(null, `not an audit export manifest (${fieldsAmiss(parsed.error)})`);
  }
  const manifest = parsed.data;
  const trusted = keyIdOf(publicKey);
  if (manifest.keyId !== trusted)
    return fail(null, `signed by key ${manifest.keyId}, not by the trusted key ${trusted}`);
  if (!signatureHolds(manifest, publicKey))
    return fail(null, 'the signature does not hold: the manifest was altered');
  if (genesisHash(manifest) !== manifest.genesis)
    return fail(null, 'its genesis is not the hash of its header');
  return { ok: true, manifest };
}

/** Why the chain breaks at line `n` whose own hash holds: its `seq` says which line of the export it really is. */
function brokenLink(seq: number, n: number): string {
  if (seq > n) {
    const missing = seq - 1 === n ? `line ${n} is` : `lines ${n}..${seq - 1} are`;
    return `it is the export's line ${seq}: ${missing} missing here (dropped or moved)`;
  }
  if (seq < n) return `it is the export's line ${seq}, repeated or moved here (inserted or reordered)`;
  return `its prev is not the hash of line ${n - 1}: that line was altered and re-hashed, or this one replaced`;
}

/**
 * Proves that `lines` are exactly the lines the manifest was signed for: each line's hash, each link to the line
 * before, the count, the head of the chain and the positions; plus the manifest's own claims (range, log order).
 * Stops at the first bad line. Reads the lines one at a time, so a file of any size checks in constant memory.
 */
export async function checkExport(
  lines: AsyncIterable<string> | Iterable<string>,
  manifestJson: unknown,
  publicKey: KeyObject,
): Promise<CheckResult> {
  const verified = verifiedManifest(manifestJson, publicKey);
  if (!verified.ok) return verified;
  const { manifest } = verified;
  const [from, to] = [Date.parse(manifest.from), Date.parse(manifest.to)];
  let prev = manifest.genesis;
  let previousPosition: string | null = null;
  let n = 0;
  for await (const text of lines) {
    n += 1;
    if (n > manifest.count) return fail(n, `the manifest lists ${manifest.count} lines: this one was added`);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return fail(n, 'not JSON (edited or cut off)');
    }
    const parsed = lineSchema.safeParse(json);
    if (!parsed.success) return fail(n, `not an export line (${fieldsAmiss(parsed.error)})`);
    const { hash, ...unhashed } = parsed.data;
    if (lineHash(unhashed) !== hash)
      return fail(n, 'its content does not match its hash: the line was altered');
    if (unhashed.prev !== prev) return fail(n, brokenLink(unhashed.seq, n));
    const recordedAt = Date.parse(unhashed.recordedAt);
    if (recordedAt < from || recordedAt >= to) {
      return fail(n, `recorded at ${unhashed.recordedAt}, outside the manifest's range`);
    }
    if (n === 1 && unhashed.position !== manifest.firstPosition) {
      return fail(n, "its position is not the manifest's first position");
    }
    if (previousPosition !== null && unhashed.position <= previousPosition) {
      return fail(n, `position ${unhashed.position} is not after line ${n - 1}'s: not in log order`);
    }
    prev = hash;
    previousPosition = unhashed.position;
  }
  if (n < manifest.count) {
    return fail(
      n + 1,
      `missing: the file ends after ${n} lines, the manifest lists ${manifest.count} (cut off)`,
    );
  }
  if (prev !== manifest.finalHash)
    return fail(n, "its hash is not the manifest's final hash: the line was replaced");
  if (previousPosition !== manifest.lastPosition)
    return fail(n, "its position is not the manifest's last position");
  return {
    ok: true,
    count: n,
    firstPosition: manifest.firstPosition,
    lastPosition: manifest.lastPosition,
    keyId: manifest.keyId,
    ...(manifest.orderId === undefined ? {} : { orderId: manifest.orderId }),
  };
}
