import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from './chromium.js';
import { startTestStore, type TestStore } from './store.js';

export interface StoreAndBrowser {
  store: TestStore;
  browser: Browser;
}

/**
 * The store and Chromium of one test file: both started together before its tests and stopped after them. Read
 * them from the answer in hooks and tests, not while the file loads (nothing has started then). `env` is read when
 * the store starts, so it may name what an earlier beforeAll has set up (a mail server, a database).
 */
export function storeAndBrowserForThisFile(env: () => Record<string, string> = () => ({})): StoreAndBrowser {
  const running = {} as StoreAndBrowser;
  beforeAll(async () => {
    [running.store, running.browser] = await Promise.all([startTestStore(env()), launchBrowser()]);
  });
  afterAll(async () => {
    await running.browser?.close();
    await running.store?.stop();
  });
  return running;
}
