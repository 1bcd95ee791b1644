import { createPublicKey, type KeyObject, sign, verify } from 'node:crypto';
import { z } from 'zod';
import { canonicalJson, sha256Hex } from './hash-chain.js';

export const EXPORT_FORMAT = 'licensestore-audit-export/1';
/** One order's events in a dispute evidence pack: the same lines, chain and signature, scoped to the order. */
export const EVIDENCE_FORMAT = 'licensestore-evidence-pack/1';

export const sha256Schema = z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 in hex');

/** The export's description, signed: enough to prove that a file holds exactly the lines the exporter wrote. */
export const manifestSchema = z
  .object({
    format: z.enum([EXPORT_FORMAT, EVIDENCE_FORMAT]),
    /** An evidence pack's order: its lines are that order's events (and only its lines carry it). */
    orderId: z.uuid().optional(),
    /** Events in log order whose recordedAt is in [from, to). */
    from: z.iso.datetime(),
    to: z.iso.datetime(),
    exportedAt: z.iso.datetime(),
    count: z.number().int().min(0),
    firstPosition: z.string().nullable(),
    lastPosition: z.string().nullable(),
    /** The first line's `prev`: the hash of the header, so lines of one export cannot open another. */
    genesis: sha256Schema,
    /** The last line's hash (the genesis when there is none): it pins every line before it. */
    finalHash: sha256Schema,
    keyId: z.string(),
    /** Ed25519 over the canonical JSON of every other field, base64. */
    signature: z.string(),
  })
  .refine((manifest) => (manifest.format === EVIDENCE_FORMAT) === (manifest.orderId !== undefined), {
    message: 'an evidence pack names its order, an export names none',
    path: ['orderId'],
  });
export type Manifest = z.infer<typeof manifestSchema>;
export type UnsignedManifest = Omit<Manifest, 'signature'>;
export type ExportHeader = Pick<Manifest, 'format' | 'orderId' | 'from' | 'to' | 'exportedAt'>;

export const exportHeader = (range: { from: Date; to: Date }, exportedAt: Date): ExportHeader => ({
  format: EXPORT_FORMAT,
  from: range.from.toISOString(),
  to: range.to.toISOString(),
  exportedAt: exportedAt.toISOString(),
});

/** The hash of the header; an export's has no `orderId` member (canonical JSON leaves out what is undefined). */
export const genesisHash = ({ format, orderId, from, to, exportedAt }: ExportHeader) =>
  sha256Hex(canonicalJson({ format, orderId, from, to, exportedAt }));

/** First 16 hex digits of the SHA-256 of the public key's SPKI DER: `openssl pkey -pubin -outform DER | sha256sum`. */
export const keyIdOf = (key: KeyObject) =>
  sha256Hex(
    (key.type === 'public' ? key : createPublicKey(key)).export({ type: 'spki', format: 'der' }),
  ).slice(0, 16);

const signedBytes = (manifest: UnsignedManifest) => Buffer.from(canonicalJson(manifest));

export function signManifest(manifest: UnsignedManifest, privateKey: KeyObject): Manifest {
  return { ...manifest, signature: sign(null, signedBytes(manifest), privateKey).toString('base64') };
}

export function signatureHolds({ signature, ...signed }: Manifest, publicKey: KeyObject): boolean {
  return verify(null, signedBytes(signed), publicKey, Buffer.from(signature, 'base64'));
}
