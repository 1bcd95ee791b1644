import compression from 'compression';
import type { Request, RequestHandler, Response } from 'express';

/**
 * Below this a compressed body saves less than its encoding costs: a small JSON answer fits one TCP packet either way.
 */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * Server-sent event streams pass untouched: a compressor holds its output back until it has enough to work on, and an
 * event has to reach the browser when it is written, not when the stream's buffer fills.
 */
const isEventStream = (res: Response) =>
  String(res.getHeader('Content-Type') ?? '').startsWith('text/event-stream');

/** What the server sends when a request accepts both: brotli's output is the smaller. */
const PREFERENCE = ['br', 'gzip'] as const;
export type Encoding = (typeof PREFERENCE)[number];

/**
 * The encoding to send among those `available`, brotli first, or undefined for the body as it is. The server's
 * preference decides, not the order of the request's list: browsers list gzip first (`gzip, deflate, br, zstd`), all
 * at the same weight. An encoding the request refuses (`;q=0`) or does not name is never chosen.
 */
export function preferredEncoding(req: Request, available: readonly Encoding[]): Encoding | undefined {
  return PREFERENCE.find(
    (encoding) => available.includes(encoding) && req.acceptsEncodings(encoding) === encoding,
  );
}

/**
 * Compresses the answers that are not kept ready compressed (cachedAnswer's are, and the built web client's files
 * are on disk): brotli or gzip as the request accepts, above the threshold, for compressible types.
 */
export function compressAnswers(): RequestHandler {
  return compression({
    threshold: COMPRESSION_THRESHOLD_BYTES,
    filter: (req: Request, res: Response) => !isEventStream(res) && compression.filter(req, res),
  });
}
