import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import type { BrowserContext } from 'playwright-core';
import { SESSION_COOKIE, SessionStore } from '../../../services/api/src/auth/sessions.js';
import type { TestStore } from './store.js';

/**
 * Where a store started by `npm start` keeps what a session needs: the Redis URL in `$DATA_DIR/stack.env` (written
 * for tools run beside the stack) and the session secret in `$DATA_DIR/secrets/session-secret`.
 */
async function sessionStoreOf(dataDir: string): Promise<{ sessions: SessionStore; redis: Redis }> {
  const stackEnv = await readFile(join(dataDir, 'stack.env'), 'utf8');
  const redisUrl = /^REDIS_URL=(.+)$/m.exec(stackEnv)?.[1];
  if (!redisUrl) throw new Error(`no REDIS_URL in ${join(dataDir, 'stack.env')}`);
  const secret = (await readFile(join(dataDir, 'secrets', 'session-secret'), 'utf8')).trim();
  const redis = new Redis(redisUrl);
  return { sessions: new SessionStore(redis, secret), redis };
}

/**
 * A real customer session in the store's Redis, as the e-mailed sign-in link will create it; returns the token the
 * `sid` cookie carries. The store must run without SESSION_SECRET in its environment (the test harness's default).
 */
export async function createCustomerSession(
  store: Pick<TestStore, 'dataDir'>,
  email: string,
): Promise<string> {
  const { sessions, redis } = await sessionStoreOf(store.dataDir);
  try {
    return await sessions.create({ kind: 'customer', subjectId: email, createdAt: new Date().toISOString() });
  } finally {
    await redis.quit();
  }
}

/** Signs the browser context in as the customer with this e-mail address. */
export async function signInAsCustomer(
  context: BrowserContext,
  store: Pick<TestStore, 'dataDir' | 'url'>,
  email: string,
): Promise<void> {
  const token = await createCustomerSession(store, email);
  await context.addCookies([
    { name: SESSION_COOKIE, value: token, url: store.url, httpOnly: true, sameSite: 'Lax' },
  ]);
}
