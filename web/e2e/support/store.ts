import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { freePort } from '../../../scripts/stack/free-port.js';
import {
  ctrlC,
  freshEnv,
  killStore,
  type StoreProcess,
  spawnStore,
  waitForUrl,
} from '../../../scripts/testing/store-process.js';

export const ADMIN_PASSWORD = 'e2e-admin-password';

export interface TestStore extends StoreProcess {
  url: string;
  dataDir: string;
  /** Ctrl-C, then the data directory removed. */
  stop: () => Promise<void>;
}

/**
 * The whole store started the way the README starts it (`npm start`: embedded Postgres, its own redis-server,
 * the PayPal emulator, the demo catalogue), in a fresh data directory on a free port. One per test file.
 */
export async function startTestStore(env: Record<string, string> = {}): Promise<TestStore> {
  const dataDir = await mkdtemp(join(tmpdir(), 'licensestore-e2e-'));
  const port = await freePort();
  const store = spawnStore(
    freshEnv({
      DATA_DIR: dataDir,
      PORT: String(port),
      ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      WEB_DIST: inject('webDist'),
      ...env,
    }),
  );
  try {
    const url = await waitForUrl(store);
    return {
      ...store,
      url,
      dataDir,
      stop: async () => {
        const code = await Promise.race([
          ctrlC(store),
          new Promise<'timeout'>((done) => setTimeout(() => done('timeout'), 30_000)),
        ]);
        if (code === 'timeout') killStore(store);
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    killStore(store);
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}
