import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';

/** A body kept ready to send, with its strong ETag: a hash of the bytes, so equal bodies always share one. */
export interface CachedAnswer {
  body: Buffer;
  etag: string;
  contentType: string;
}

export function cachedAnswer(body: Buffer, contentType: string): CachedAnswer {
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url')}"`, contentType };
}

export const cachedJson = (value: unknown): CachedAnswer =>
  cachedAnswer(Buffer.from(JSON.stringify(value)), 'application/json; charset=utf-8');

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

/** The answer with its ETag and Cache-Control, or 304 and no body when the caller already holds it. */
export function sendCached(req: Request, res: Response, answer: CachedAnswer, cacheControl: string): void {
  res.setHeader('ETag', answer.etag);
  res.setHeader('Cache-Control', cacheControl);
  if (!noneMatch(req.get('if-none-match'), answer.etag)) {
    res.status(304).end();
    return;
  }
  res.setHeader('Content-Type', answer.contentType);
  res.setHeader('Content-Length', answer.body.length);
  // Straight to Node: express's send would only look at what is settled above (and Node drops a HEAD's body).
  res.end(answer.body);
}
