import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Request, Response } from 'express';
import { COMPRESSION_THRESHOLD_BYTES, type Encoding, preferredEncoding } from './compression.js';

/** A body kept ready to send, with its strong ETag: a hash of the bytes, so equal bodies always share one. */
export interface CachedAnswer {
  body: Buffer;
  etag: string;
  contentType: string;
  /** The body compressed, per encoding, once a caller has accepted it. */
  encoded: Partial<Record<Encoding, Buffer>>;
}

export function cachedAnswer(body: Buffer, contentType: string): CachedAnswer {
  return {
    body,
    etag: `"${createHash('sha256').update(body).digest('base64url')}"`,
    contentType,
    encoded: {},
  };
}

export const cachedJson = (value: unknown): CachedAnswer =>
  cachedAnswer(Buffer.from(JSON.stringify(value)), 'application/json; charset=utf-8');

/**
 * Quality 9, not brotli's 11: an answer is compressed once per change of what it holds, on the request that first
 * wants it, where 11 costs several times as long for a few percent fewer bytes.
 */
const BROTLI_QUALITY = 9;

const ENCODERS: Record<Encoding, (body: Buffer) => Buffer> = {
  br: (body) => brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } }),
  gzip: (body) => gzipSync(body, { level: 9 }),
};

const ENCODINGS = Object.keys(ENCODERS) as Encoding[];

/**
 * If-None-Match by the weak comparison RFC 9110 (13.1.2) prescribes for it: `*`, or any listed tag equal to ours
 * once `W/` is set aside. Evaluated whatever the request's Cache-Control says: `no-cache` asks caches on the way to
 * check with the origin, which is what this is (express's `req.fresh` would answer in full instead).
 */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return true;
  const ours = etag.replace(/^W\//, '');
  return !header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === ours;
  });
}

/**
 * The encoding of the answer's body for this request, compressing it the first time one is asked for. Each encoding
 * has its own ETag (the identity's with a suffix), as RFC 9110 wants of different representations, so a cache never
 * hands gzip to a client that asked for brotli on the strength of a 304.
 */
function representation(
  req: Request,
  answer: CachedAnswer,
): { body: Buffer; etag: string; encoding?: Encoding } {
  if (answer.body.length < COMPRESSION_THRESHOLD_BYTES) return { body: answer.body, etag: answer.etag };
  const encoding = preferredEncoding(req, ENCODINGS);
  if (!encoding) return { body: answer.body, etag: answer.etag };
  answer.encoded[encoding] ??= ENCODERS[encoding](answer.body);
  return { body: answer.encoded[encoding], etag: answer.etag.replace(/"$/, `-${encoding}"`), encoding };
}

/** The answer with its ETag and Cache-Control, or 304 and no body when the caller already holds it. */
export function sendCached(req: Request, res: Response, answer: CachedAnswer, cacheControl: string): void {
  const { body, etag, encoding } = representation(req, answer);
  res.setHeader('ETag', etag);
  res.setHeader('Cache-Control', cacheControl);
  if (answer.body.length >= COMPRESSION_THRESHOLD_BYTES) res.setHeader('Vary', 'Accept-Encoding');
  if (!noneMatch(req.get('if-none-match'), etag)) {
    res.status(304).end();
    return;
  }
  res.setHeader('Content-Type', answer.contentType);
  if (encoding) res.setHeader('Content-Encoding', encoding);
  res.setHeader('Content-Length', body.length);
  // Straight to Node: express's send would only look at what is settled above (and Node drops a HEAD's body).
  res.end(body);
}
