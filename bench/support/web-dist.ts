import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';
import { ROOT } from './store.js';

const WEB = join(ROOT, 'web');

/** The web client as production ships it (vite's production build), into `outDir`. */
export async function buildWebClient(outDir: string): Promise<void> {
  await build({
    root: WEB,
    configFile: join(WEB, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true },
  });
}

/**
 * A built web client for the store to serve: this checkout's web/dist when it has been built, otherwise a
 * production build into a scratch directory that `remove` deletes.
 */
export async function builtWebClient(): Promise<{ dir: string; remove: () => Promise<void> }> {
  const built = join(WEB, 'dist');
  if (existsSync(join(built, 'index.html'))) return { dir: built, remove: async () => {} };
  const dir = await mkdtemp(join(tmpdir(), 'licensestore-bench-web-'));
  await buildWebClient(dir);
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
