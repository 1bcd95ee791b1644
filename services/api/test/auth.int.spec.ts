import { createHmac } from 'node:crypto';
import { openDatabase } from '@licensestore/platform/db';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testRedisUrl } from '../../../test/support/database.js';
import { ensureFirstAdmin } from '../src/auth/admins.js';
import { migrateApi } from '../src/migrations/index.js';
import {
  type LogEntry,
  recordingLogger,
  sessionCookieFrom,
  signIn,
  startTestApi,
  type TestApi,
} from './support/api.js';

const ADMIN = { username: 'admin', password: 'correct horse battery staple' };

const login = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${url}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

const isAdmin = async (url: string, cookie?: string) => {
  const response = await fetch(`${url}/api/admin/status`, { headers: cookie ? { cookie } : {} });
  expect(response.status).toBe(200);
  return ((await response.json()) as { isAdmin: boolean }).isAdmin;
};

describe('Admin sign-in', () => {
  let api: TestApi;
  let redis: Redis;

  beforeAll(async () => {
    api = await startTestApi({ env: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password } });
    redis = new Redis(testRedisUrl(), { keyPrefix: api.redisKeyPrefix });
  });
  afterAll(async () => {
    await redis?.quit();
    await api?.stop();
  });

  describe('with the right credentials', () => {
    it('answers with the username and sets an HttpOnly, SameSite=Lax session cookie', async () => {
      const response = await login(api.url, ADMIN);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ success: true, username: 'admin' });
      const cookie = response.headers.getSetCookie().find((header) => header.startsWith('sid='));
      expect(cookie).toMatch(/^sid=[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax$/);
    });

    it('matches the username whatever its case', async () => {
      const response = await login(api.url, { username: 'ADMIN', password: ADMIN.password });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ success: true, username: 'admin' });
    });

    it('makes the status endpoint report an admin', async () => {
      const cookie = await signIn(api.url, ADMIN.username, ADMIN.password);
      expect(await isAdmin(api.url, cookie)).toBe(true);
    });

    it('keeps only an HMAC of the token in Redis, with a 12-hour expiry that slides on use', async () => {
      const cookie = await signIn(api.url, ADMIN.username, ADMIN.password);
      const token = cookie.slice('sid='.length);
      const key = `session:${createHmac('sha256', api.sessionSecret).update(token).digest('hex')}`;
      expect(await redis.exists(`session:${token}`)).toBe(0);
      expect(JSON.parse((await redis.get(key)) ?? 'null')).toEqual({
        kind: 'admin',
        subjectId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        username: 'admin',
        createdAt: expect.any(String),
      });
      expect(await redis.ttl(key)).toBeGreaterThan(12 * 60 * 60 - 10);

      await redis.expire(key, 60);
      expect(await isAdmin(api.url, cookie)).toBe(true);
      expect(await redis.ttl(key)).toBeGreaterThan(12 * 60 * 60 - 10);
    });

    it('issues a new token even when the browser already had one', async () => {
      const first = await signIn(api.url, ADMIN.username, ADMIN.password);
      const response = await login(api.url, ADMIN, { cookie: first });
      const second = sessionCookieFrom(response);
      expect(second).not.toBe(first);
      expect(await isAdmin(api.url, first)).toBe(false);
      expect(await isAdmin(api.url, second)).toBe(true);
    });
  });

  describe('with wrong credentials', () => {
    it('refuses a wrong password with 401 and no cookie', async () => {
      const response = await login(api.url, { username: 'admin', password: 'not the password' });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: 'Invalid credentials' });
      expect(response.headers.getSetCookie()).toEqual([]);
    });

    it('refuses an unknown username the same way', async () => {
      const response = await login(api.url, { username: 'nobody', password: ADMIN.password });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: 'Invalid credentials' });
    });
  });

  describe('with a field missing', () => {
    it.each([
      [{ password: 'x' }, 'username: is required'],
      [{ username: 'admin' }, 'password: is required'],
      [{ username: '', password: 'x' }, 'username: is required'],
      [{ username: 'admin', password: 42 }, 'password: must be a string, not number'],
    ])('answers 400 for %j', async (body, message) => {
      const response = await login(api.url, body);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: message });
    });

    it('answers 400 for a request without a body', async () => {
      const response = await fetch(`${api.url}/api/admin/login`, { method: 'POST' });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: 'Request body must be a JSON object' });
    });
  });

  describe('status', () => {
    it('reports a visitor without a session as not an admin', async () => {
      expect(await isAdmin(api.url)).toBe(false);
    });

    it('reports a garbage cookie as not an admin', async () => {
      expect(await isAdmin(api.url, 'sid=not-a-token')).toBe(false);
    });

    it('reports a signed-in customer as not an admin', async () => {
      const cookie = await api.sessionCookie({ kind: 'customer', subjectId: 'customer@example.com' });
      expect(await isAdmin(api.url, cookie)).toBe(false);
    });
  });

  describe('logout', () => {
    it('ends the session on the server and clears the cookie', async () => {
      const cookie = await signIn(api.url, ADMIN.username, ADMIN.password);
      const response = await fetch(`${api.url}/api/admin/logout`, { method: 'POST', headers: { cookie } });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ success: true });
      expect(response.headers.getSetCookie()).toEqual([
        expect.stringMatching(
          /^sid=; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax$/,
        ),
      ]);
      expect(await isAdmin(api.url, cookie)).toBe(false);
    });

    it('succeeds without a session too', async () => {
      const response = await fetch(`${api.url}/api/admin/logout`, { method: 'POST' });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ success: true });
    });
  });

  describe('cross-site requests', () => {
    it('refuses a POST whose Origin is another site', async () => {
      const response = await login(api.url, ADMIN, { origin: 'https://evil.example' });
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ error: 'Cross-site request refused' });
      expect(response.headers.getSetCookie()).toEqual([]);
    });

    it('refuses a POST the browser marks Sec-Fetch-Site: cross-site', async () => {
      const response = await fetch(`${api.url}/api/admin/logout`, {
        method: 'POST',
        headers: { 'sec-fetch-site': 'cross-site' },
      });
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ error: 'Cross-site request refused' });
    });

    it('refuses an opaque (null) Origin', async () => {
      const response = await login(api.url, ADMIN, { origin: 'null' });
      expect(response.status).toBe(403);
    });

    it('accepts a POST from its own origin', async () => {
      const response = await login(api.url, ADMIN, { origin: api.url, 'sec-fetch-site': 'same-origin' });
      expect(response.status).toBe(200);
    });

    it('lets reads through whatever their origin', async () => {
      const response = await fetch(`${api.url}/api/admin/status`, {
        headers: { origin: 'https://evil.example' },
      });
      expect(response.status).toBe(200);
    });
  });
});

describe('Sign-in throttling', () => {
  let api: TestApi;

  beforeEach(async () => {
    api = await startTestApi({ env: { ADMIN_PASSWORD: ADMIN.password } });
  });
  afterEach(async () => {
    await api?.stop();
  });

  it('refuses a username after 5 failures from one address, even with the right password', async () => {
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect((await login(api.url, { username: 'admin', password: `wrong ${attempt}` })).status).toBe(401);
    }
    const blocked = await login(api.url, ADMIN);
    expect(blocked.status).toBe(429);
    expect(await blocked.json()).toEqual({
      error: 'Too many failed login attempts. Try again in 15 minutes.',
    });
    const retryAfter = Number(blocked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect((await login(api.url, { username: 'someone-else', password: 'wrong' })).status).toBe(401);
  });

  it('refuses any username after 20 failures from one address', async () => {
    for (let attempt = 1; attempt <= 20; attempt++) {
      expect((await login(api.url, { username: `guess-${attempt}`, password: 'wrong' })).status).toBe(401);
    }
    const blocked = await login(api.url, ADMIN);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
  });

  it('gives the attempt back on success, so signing in clears the count for that username', async () => {
    for (let round = 0; round < 2; round++) {
      for (let attempt = 1; attempt <= 4; attempt++) {
        expect((await login(api.url, { username: 'admin', password: 'wrong' })).status).toBe(401);
      }
      expect((await login(api.url, ADMIN)).status).toBe(200);
    }
  });
});

describe('Behind https (PUBLIC_URL)', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startTestApi({ env: { ADMIN_PASSWORD: ADMIN.password, PUBLIC_URL: 'https://shop.example' } });
  });
  afterAll(async () => {
    await api?.stop();
  });

  it('marks the session cookie Secure', async () => {
    const response = await login(api.url, ADMIN);
    expect(response.status).toBe(200);
    expect(response.headers.getSetCookie()[0]).toMatch(/; Secure;/);
  });

  it('takes the public origin as its own, whatever the Host header says', async () => {
    expect((await login(api.url, ADMIN, { origin: 'https://shop.example' })).status).toBe(200);
    expect((await login(api.url, ADMIN, { origin: api.url })).status).toBe(403);
  });
});

describe('First admin', () => {
  it('is seeded from ADMIN_USERNAME and ADMIN_PASSWORD', async () => {
    const api = await startTestApi({
      env: { ADMIN_USERNAME: 'Owner', ADMIN_PASSWORD: 'a long enough password' },
    });
    try {
      expect(api.logger.entries.filter((entry) => entry.level === 'warn')).toEqual([]);
      expect(await signIn(api.url, 'owner', 'a long enough password')).toMatch(/^sid=/);
    } finally {
      await api.stop();
    }
  });

  it('gets a random password, printed once, when ADMIN_PASSWORD is unset', async () => {
    const api = await startTestApi();
    const databaseUrl = api.databaseUrl;
    let password = '';
    try {
      const warnings = api.logger.entries.filter((entry) => entry.level === 'warn');
      expect(warnings).toHaveLength(1);
      const [warning] = warnings as [LogEntry];
      // In the message only: a field named password is redacted from every log line.
      password = /generated password ([\w-]{24}) /.exec(warning.message)?.[1] ?? '';
      expect(password).toMatch(/^[\w-]{24}$/);
      expect(warning.fields).not.toHaveProperty('password');
      expect(await signIn(api.url, 'admin', password)).toMatch(/^sid=/);
    } finally {
      await api.stop();
    }

    const restarted = await startTestApi({ databaseUrl });
    try {
      expect(restarted.logger.entries.filter((entry) => entry.level === 'warn')).toEqual([]);
      expect(await signIn(restarted.url, 'admin', password)).toMatch(/^sid=/);
    } finally {
      await restarted.stop();
    }
  });

  it('is created once when several instances start together', async () => {
    const database = openDatabase(await createTestDatabase());
    try {
      await migrateApi(database.db);
      const loggers = [recordingLogger(), recordingLogger(), recordingLogger()];
      const outcomes = await Promise.all(
        loggers.map((logger) => ensureFirstAdmin(database.db, { username: 'admin' }, logger)),
      );
      expect(outcomes.filter((outcome) => outcome.created)).toHaveLength(1);
      expect(loggers.flatMap((logger) => logger.entries)).toHaveLength(1);
      const rows = await database.db.selectFrom('admin_users').select('username').execute();
      expect(rows).toEqual([{ username: 'admin' }]);
    } finally {
      await database.close();
    }
  });
});
