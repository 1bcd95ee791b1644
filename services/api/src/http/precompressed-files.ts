import { readdirSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import type { RequestHandler } from 'express';
import { type Encoding, preferredEncoding } from './compression.js';

/** The suffix of the copy the build writes beside a file in each encoding. */
const SUFFIXES: Record<Encoding, string> = { br: '.br', gzip: '.gz' };

function* filesUnder(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else yield path;
  }
}

/** URL path → the encodings its file has a compressed copy in, found once at start (the build does not change). */
function compressedCopies(dir: string): Map<string, Encoding[]> {
  const files = new Set([...filesUnder(dir)].map((file) => `/${relative(dir, file).split(sep).join('/')}`));
  const copies = new Map<string, Encoding[]>();
  for (const path of files) {
    const encodings = (Object.keys(SUFFIXES) as Encoding[]).filter((encoding) =>
      files.has(`${path}${SUFFIXES[encoding]}`),
    );
    if (encodings.length > 0) copies.set(path, encodings);
  }
  return copies;
}

/**
 * Answers a request for a file of `dir` that the build also wrote compressed (`file.br`, `file.gz`) with the copy
 * its Accept-Encoding prefers, as the file's type, with `cacheControl`; any other request goes on (to express.static,
 * which sends the file as it is). Every answer for such a file says `Vary: Accept-Encoding`, so a shared cache keeps
 * one copy per encoding.
 */
export function precompressedFiles(dir: string, cacheControl: string): RequestHandler {
  const copies = compressedCopies(dir);
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const encodings = copies.get(req.path);
    if (!encodings) return next();
    res.vary('Accept-Encoding');
    const encoding = preferredEncoding(req, encodings);
    if (!encoding) return next();
    res.type(extname(req.path));
    res.setHeader('Content-Encoding', encoding);
    res.sendFile(`${req.path.slice(1)}${SUFFIXES[encoding]}`, {
      root: dir,
      headers: { 'Cache-Control': cacheControl },
      cacheControl: false,
    });
  };
}
