import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildWebClient } from '../../web/build/build-web-client.js';
import { ROOT } from './store.js';

const WEB = join(ROOT, 'web');

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
