import { randomBytes, randomUUID } from 'node:crypto';
import { loadConfig, requireLicenseKeySecret } from '@licensestore/platform/config';
import { createKeyVault, type KeyVault } from '@licensestore/platform/key-vault';
import { recordingLogger } from '@licensestore/platform/logging';
import { createOrderAccess, type OrderAccess } from '@licensestore/platform/order-access';
import { Redis } from 'ioredis';
import { createTestDatabase, testRedisUrl } from '../../../../test/support/database.js';
import { type Session, SessionStore } from '../../src/auth/sessions.js';
import { type RunningApi, type StartApiOptions, startApi } from '../../src/main.js';

export { type LogEntry, recordingLogger } from '@licensestore/platform/logging';

export interface TestApi extends RunningApi {
  databaseUrl: string;
  redisKeyPrefix: string;
  sessionSecret: string;
  /** Opens and seals keys as this api does (its LICENSE_KEY_SECRET is random per instance). */
  keyVault: KeyVault;
  /** Makes access tokens as this api checks them (the delivery e-mail's link, the order cookie). */
  orderAccess: OrderAccess;
  logger: ReturnType<typeof recordingLogger>;
  /** Signs a session straight into Redis, as a later sign-in flow would; returns the Cookie header value. */
  sessionCookie: (session: Omit<Session, 'createdAt'>) => Promise<string>;
}

export interface TestApiOptions {
  env?: Record<string, string>;
  /** Reuse a database (e.g. a second instance); a fresh one by default. */
  databaseUrl?: string;
  /** PayPal overrides, e.g. a standalone emulator's base URL; the app mounts its own emulator otherwise. */
  payments?: StartApiOptions['payments'];
  /** PayPal orders and captures per client address; TEST_CHECKOUT_LIMITS by default (a test of them passes its own). */
  checkoutLimits?: StartApiOptions['checkoutLimits'];
  orderStreams?: StartApiOptions['orderStreams'];
  liveStreams?: StartApiOptions['liveStreams'];
  /** The api's Redis key prefix, for roles started before it to share its queues; a random one by default. */
  redisKeyPrefix?: string;
}

/** A test file buys from one address far faster than any shopper does: the real limit would refuse it. */
const UNLIMITED = { perClient: 100_000, windowSeconds: 60 };
const TEST_CHECKOUT_LIMITS = { orders: UNLIMITED, captures: UNLIMITED };

/** The api role as `startApi` runs it, on a fresh database and its own Redis key prefix. */
export async function startTestApi(options: TestApiOptions = {}): Promise<TestApi> {
  const databaseUrl = options.databaseUrl ?? (await createTestDatabase());
  const redisKeyPrefix = options.redisKeyPrefix ?? `test-${randomUUID()}:`;
  const sessionSecret = randomBytes(32).toString('hex');
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    REDIS_URL: testRedisUrl(),
    SESSION_SECRET: sessionSecret,
    LICENSE_KEY_SECRET: randomBytes(32).toString('base64url'),
    ...options.env,
  });
  const logger = recordingLogger();
  const api = await startApi({
    config,
    port: 0,
    host: '127.0.0.1',
    logger,
    redisKeyPrefix,
    payments: options.payments,
    checkoutLimits: options.checkoutLimits ?? TEST_CHECKOUT_LIMITS,
    orderStreams: options.orderStreams,
    liveStreams: options.liveStreams,
  });
  const redis = new Redis(testRedisUrl(), { keyPrefix: redisKeyPrefix });
  const sessions = new SessionStore(redis, sessionSecret);
  let stopped: Promise<void> | undefined;
  return {
    ...api,
    databaseUrl,
    redisKeyPrefix,
    sessionSecret,
    keyVault: createKeyVault(requireLicenseKeySecret(config)),
    orderAccess: createOrderAccess(requireLicenseKeySecret(config)),
    logger,
    sessionCookie: async (session) =>
      `sid=${await sessions.create({ ...session, createdAt: new Date().toISOString() })}`,
    // Once: a test that stops the api itself (to watch it drain) leaves the rest to its fixture's stop.
    stop: () => {
      stopped ??= api.stop().then(async () => {
        await redis.quit();
      });
      return stopped;
    },
  };
}

/** Signs in through the API and returns the session cookie ("sid=…"). */
export async function signIn(url: string, username: string, password: string): Promise<string> {
  const response = await fetch(`${url}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (response.status !== 200) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  return sessionCookieFrom(response);
}

export function sessionCookieFrom(response: Response): string {
  const cookie = response.headers.getSetCookie().find((header) => header.startsWith('sid='));
  if (!cookie) throw new Error('no session cookie in the response');
  return cookie.split(';')[0] as string;
}

/** A request as the web client sends it: the session cookie when given, JSON when there is a body. */
export function callApi(
  url: string,
  method: string,
  path: string,
  options: { cookie?: string; body?: unknown } = {},
): Promise<Response> {
  return fetch(`${url}${path}`, {
    method,
    headers: {
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
}
