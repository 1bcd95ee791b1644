import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import express, { type RequestHandler, Router } from 'express';

const DAY = 24 * 60 * 60;

/** services/api/public: images are referenced by stable URLs and rarely change, so browsers may keep them a while. */
export function publicFiles(dir: string): Router {
  const router = Router();
  router.use(
    '/images',
    express.static(join(dir, 'images'), {
      index: false,
      setHeaders: (res) => res.setHeader('Cache-Control', `public, max-age=${30 * DAY}`),
    }),
  );
  router.use(express.static(dir, { index: false }));
  return router;
}

export interface WebClient {
  router: Router;
  /** Hashes of index.html's inline scripts, from the build's csp.json, for the CSP's script-src. */
  scriptHashes: string[];
}

const SCRIPT_HASH = /^'sha(256|384|512)-[A-Za-z0-9+/]+={0,2}'$/;

function readScriptHashes(dist: string): string[] {
  const file = join(dist, 'csp.json');
  if (!existsSync(file)) return [];
  const { 'script-src': sources } = JSON.parse(readFileSync(file, 'utf8')) as { 'script-src'?: unknown };
  if (
    !Array.isArray(sources) ||
    !sources.every((source) => typeof source === 'string' && SCRIPT_HASH.test(source))
  ) {
    throw new Error(`${file}: script-src must be a list of 'sha256-…' hashes`);
  }
  return sources;
}

/**
 * The built web client (web/dist) when it exists: hashed assets cached for good, index.html never, and
 * index.html for any other page a browser asks for, so client-side routes survive a reload.
 */
export function webClient(dist: string): WebClient | null {
  const index = join(dist, 'index.html');
  if (!existsSync(index)) return null;
  const scriptHashes = readScriptHashes(dist);
  const router = Router();
  router.use(
    '/assets',
    express.static(join(dist, 'assets'), {
      index: false,
      fallthrough: false,
      setHeaders: (res) => res.setHeader('Cache-Control', `public, max-age=${365 * DAY}, immutable`),
    }),
  );
  router.use(express.static(dist, { index: false }));
  const spaFallback: RequestHandler = (req, res, next) => {
    const isPageLoad =
      (req.method === 'GET' || req.method === 'HEAD') && req.get('accept')?.includes('text/html');
    if (!isPageLoad) return next();
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index);
  };
  router.use(spaFallback);
  return { router, scriptHashes };
}
