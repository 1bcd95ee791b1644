import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildWebClient } from '../../build/build-web-client.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The web client built from the code under test, served by every store the browser tests start. */
    webDist: string;
  }
}

/**
 * Builds the web client once per run into a directory of its own (WEB_DIST), so a run never serves a stale
 * web/dist, nor races another run (or `npm start`) rebuilding web/dist under it.
 */
export default async function setup(project: TestProject) {
  const outDir = await mkdtemp(join(tmpdir(), 'licensestore-web-'));
  await buildWebClient(outDir);
  project.provide('webDist', outDir);
  return () => rm(outDir, { recursive: true, force: true });
}
