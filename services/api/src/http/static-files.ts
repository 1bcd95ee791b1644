import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import express, { type RequestHandler, Router } from 'express';
import { type CachedAnswer, cachedAnswer, sendCached } from './cached-answer.js';
import { precompressedFiles } from './precompressed-files.js';

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
  /**
   * index.html for a page load of `/` alone, for the app to mount ahead of the static file lookups the home page
   * does not need (every other page load still reaches the router's last handler).
   */
  home: RequestHandler;
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
 * A page drawn on the server for a URL (a public storefront page), or null when the browser draws it: given the
 * built index.html, which every page is drawn into.
 */
export type PageSource = (shell: Buffer) => (url: string) => Promise<CachedAnswer | null>;

/**
 * The built web client (web/dist) when it exists: hashed assets cached for good, a page revalidated on every use
 * (it names the current assets), drawn on the server when `pages` draws it, else index.html for the browser to draw,
 * so client-side routes survive a reload. index.html is read once, like the script hashes its CSP allows: a new build
 * needs a restart.
 */
export function webClient(dist: string, pages?: PageSource): WebClient | null {
  const index = join(dist, 'index.html');
  if (!existsSync(index)) return null;
  const html = readFileSync(index);
  const shell = cachedAnswer(html, 'text/html; charset=utf-8');
  const drawn = pages?.(html);
  const scriptHashes = readScriptHashes(dist);
  const router = Router();
  // Hashed names: a file's content never changes under its name, so browsers keep it for good.
  const forGood = `public, max-age=${365 * DAY}, immutable`;
  router.use('/assets', precompressedFiles(join(dist, 'assets'), forGood));
  router.use(
    '/assets',
    express.static(join(dist, 'assets'), {
      index: false,
      fallthrough: false,
      setHeaders: (res) => res.setHeader('Cache-Control', forGood),
    }),
  );
  router.use(precompressedFiles(dist, 'public, max-age=0'));
  router.use(express.static(dist, { index: false }));
  const page: RequestHandler = async (req, res, next) => {
    const isPageLoad =
      (req.method === 'GET' || req.method === 'HEAD') && req.get('accept')?.includes('text/html');
    if (!isPageLoad) return next();
    sendCached(req, res, (await drawn?.(req.originalUrl)) ?? shell, 'no-cache');
  };
  router.use(page);
  const home: RequestHandler = (req, res, next) => (req.path === '/' ? page(req, res, next) : next());
  return { router, home, scriptHashes };
}
