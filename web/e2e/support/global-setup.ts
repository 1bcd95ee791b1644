import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The web client built from the code under test, served by every store the browser tests start. */
    webDist: string;
  }
}

const WEB = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Builds the web client once per run into a directory of its own (WEB_DIST), so a run never serves a stale
 * web/dist, nor races another run (or `npm start`) rebuilding web/dist under it.
 */
export default async function setup(project: TestProject) {
  const outDir = await mkdtemp(join(tmpdir(), 'licensestore-web-'));
  await build({
    root: WEB,
    configFile: join(WEB, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true },
  });
  project.provide('webDist', outDir);
  return () => rm(outDir, { recursive: true, force: true });
}
