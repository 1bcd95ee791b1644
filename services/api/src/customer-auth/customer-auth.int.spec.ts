import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventStore } from '@licensestore/domain/events';
import type { DatabaseHandle } from '@licensestore/platform/db';
import { waitForProjections } from '@licensestore/platform/readmodel';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendOrder, orderCaptured, orderLine } from '../../../../projections/test/support/orders.js';
import { freePort } from '../../../../scripts/stack/free-port.js';
import { testRedisUrl } from '../../../../test/support/database.js';
import { mailFiles, type ReadMail, readMail, signInLinkIn } from '../../../../test/support/mail.js';
import { startTestSmtpServer } from '../../../../test/support/smtp-server.js';
import { sessionCookieFrom, startTestApi, type TestApi } from '../../test/support/api.js';
import { type ApiWithReadModel, startApiWithReadModel } from '../../test/support/api-with-read-model.js';

/** Where links point when PUBLIC_URL is unset: the configured port's localhost, never the request's Host. */
const DEFAULT_ORIGIN = 'http://localhost:5000';

describe('Customer sign-in by an e-mailed one-time link', () => {
  let dataDir: string;
  let database: DatabaseHandle;
  let eventStore: EventStore;
  let store: ApiWithReadModel;
  let api: TestApi;
  let redis: Redis;

  /** Every test asks from its own client address (TRUST_PROXY=loopback), so the per-client limit stays apart. */
  let clients = 0;
  const client = () => `198.51.100.${++clients}`;
  const address = (name = 'ada') => `${name}-${randomUUID()}@example.com`;

  const requestLink = (email: string, ip: string) =>
    fetch(`${api.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
      body: JSON.stringify({ email }),
    });

  /** The messages written to DATA_DIR/mail for this recipient. */
  const mailsTo = async (email: string) =>
    [...(await mailFiles(dataDir)).values()].filter((mail) => mail.to.includes(email.toLowerCase()));

  /** Asks for a link and returns the one in the e-mail this request sent. */
  const linkFor = async (email: string, ip = client()) => {
    const before = new Set((await mailFiles(dataDir)).keys());
    const response = await requestLink(email, ip);
    expect(response.status).toBe(200);
    const sent = [...(await mailFiles(dataDir))].filter(([name]) => !before.has(name));
    expect(sent.map(([, mail]) => mail.to)).toStrictEqual([[email.toLowerCase()]]);
    return signInLinkIn((sent[0] as [string, ReadMail])[1]);
  };

  /**
   * Links point at PUBLIC_URL's default (http://localhost:PORT), not at the port this test's api listens on; a
   * navigation the visitor made themselves (opened from the mail program) says so in Sec-Fetch-Site.
   */
  const follow = (url: string, cookie?: string, site = 'none') =>
    fetch(url.replace(DEFAULT_ORIGIN, api.url), {
      redirect: 'manual',
      headers: { 'sec-fetch-site': site, ...(cookie ? { cookie } : {}) },
    });

  const user = (cookie?: string) => fetch(`${api.url}/api/auth/user`, { headers: cookie ? { cookie } : {} });

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'customer-auth-'));
    store = await startApiWithReadModel({ env: { DATA_DIR: dataDir, TRUST_PROXY: 'loopback' } });
    ({ api, database, eventStore } = store);
    redis = new Redis(testRedisUrl(), { keyPrefix: api.redisKeyPrefix });
  });
  afterAll(async () => {
    await redis?.quit();
    await store?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("sends browsers to the web client's sign-in and sign-up pages", async () => {
    for (const [query, page] of [
      ['', '/sign-in'],
      ['?intent=sign-up', '/sign-up'],
    ]) {
      const response = await fetch(`${api.url}/api/login${query}`, { redirect: 'manual' });
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe(page);
    }
  });

  it('e-mails a link that signs the customer in, lands on /account, and shows their orders', async () => {
    const email = address('grace');
    const line = orderLine('Windows 11 Pro', 1, '19.99');
    const order = orderCaptured({
      name: 'Grace Hopper',
      email: email.toUpperCase(),
      lines: [line],
      capturedAt: new Date().toISOString(),
    });
    const { position } = await appendOrder(eventStore, order.data.orderId, order);
    expect(
      await waitForProjections(database.pool, position, { projectors: ['orders'], timeoutMs: 10_000 }),
    ).toBe(true);

    const asked = await requestLink(` ${email.toUpperCase()} `, client());
    expect(asked.status).toBe(200);
    expect(await asked.json()).toStrictEqual({ email: email.toUpperCase() });
    const [mail] = await mailsTo(email);
    expect(mail?.subject).toBe('Your sign-in link for LicenseStore');
    const { url, token } = signInLinkIn(mail as ReadMail);
    expect(url).toBe(`${DEFAULT_ORIGIN}/api/login/callback?token=${token}`);
    expect(mail?.html).toContain(`<a href="${url}">Sign in to LicenseStore</a>`);

    const signedIn = await follow(url);
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe('/account');
    const setCookie = signedIn.headers.getSetCookie().find((header) => header.startsWith('sid='));
    expect(setCookie).toMatch(/^sid=[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax$/);
    const cookie = sessionCookieFrom(signedIn);

    const me = await user(cookie);
    expect(me.status).toBe(200);
    expect(await me.json()).toStrictEqual({ id: email, email, profileImageUrl: null });
    const orders = await fetch(`${api.url}/api/my-orders`, { headers: { cookie } });
    expect(orders.status).toBe(200);
    expect(((await orders.json()) as { id: string }[]).map((o) => o.id)).toStrictEqual([order.data.orderId]);
  });

  it('refuses a form post: the web client sends JSON', async () => {
    const email = address();
    const response = await fetch(`${api.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': client() },
      body: new URLSearchParams({ email }).toString(),
    });
    expect(response.status).toBe(400);
    expect(await mailsTo(email)).toStrictEqual([]);
  });

  it('keeps only a SHA-256 of the token in Redis, for 15 minutes', async () => {
    const email = address();
    const { token } = await linkFor(email);
    const key = `sign-in-token:${createHash('sha256').update(token).digest('hex')}`;
    expect(await redis.get(key)).toBe(email);
    expect(await redis.ttl(key)).toBeGreaterThan(15 * 60 - 10);
    expect(await redis.ttl(key)).toBeLessThanOrEqual(15 * 60);
    expect(await redis.keys(`*${token}*`)).toStrictEqual([]);
  });

  it('signs in once per link: a second use is refused', async () => {
    const { url } = await linkFor(address());
    expect((await follow(url)).status).toBe(303);
    const again = await follow(url);
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toBe('/sign-in/link-expired');
    expect(again.headers.getSetCookie()).toStrictEqual([]);
  });

  it('signs in once per token posted by the confirming page: a second post is refused', async () => {
    const { token } = await linkFor(address());
    const post = (body: unknown) =>
      fetch(`${api.url}/api/login/callback`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const first = await post({ token });
    expect(first.status).toBe(204);
    expect(await (await user(sessionCookieFrom(first))).json()).toMatchObject({ email: expect.any(String) });
    const again = await post({ token });
    expect(again.status).toBe(410);
    expect(again.headers.getSetCookie()).toStrictEqual([]);
    expect(await again.json()).toStrictEqual({
      error: 'This sign-in link has expired or was already used. Ask for a new one.',
    });
    for (const body of [{}, { token: '' }, { token: 42 }, []]) expect((await post(body)).status).toBe(400);
  });

  it('refuses an expired link', async () => {
    const { url, token } = await linkFor(address());
    await redis.del(`sign-in-token:${createHash('sha256').update(token).digest('hex')}`);
    const response = await follow(url);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/sign-in/link-expired');
    expect(response.headers.getSetCookie()).toStrictEqual([]);
  });

  it('refuses unknown, malformed and missing tokens', async () => {
    for (const query of [`?token=${'A'.repeat(43)}`, '?token=short', '']) {
      const response = await follow(`${api.url}/api/login/callback${query}`);
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe('/sign-in/link-expired');
      expect(response.headers.getSetCookie()).toStrictEqual([]);
    }
  });

  it('answers the same for any address, and says what is wrong with an invalid one', async () => {
    const known = address();
    const unknown = address();
    const first = await (await requestLink(known, client())).text();
    const second = await (await requestLink(unknown, client())).text();
    expect(second.replace(unknown, known)).toBe(first);

    const invalid = await requestLink('not-an-address', client());
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toStrictEqual({ error: 'Enter an email address, like name@example.com.' });
  });

  it('sends at most 5 links per address in 15 minutes, whatever the client, then answers the same page', async () => {
    const email = address();
    for (let i = 0; i < 5; i++) await linkFor(email);
    const over = await requestLink(email, client());
    expect(over.status).toBe(200);
    expect(await over.json()).toStrictEqual({ email });
    expect(await mailsTo(email)).toHaveLength(5);
    expect(api.logger.entries).toContainEqual(
      expect.objectContaining({ level: 'warn', fields: expect.objectContaining({ limit: 'address' }) }),
    );
  });

  it('sends at most 20 links per client in 15 minutes', async () => {
    const ip = '203.0.113.7';
    for (let i = 0; i < 20; i++) await linkFor(address(), ip);
    const email = address();
    const over = await requestLink(email, ip);
    expect(over.status).toBe(200);
    expect(await over.json()).toStrictEqual({ email });
    expect(await mailsTo(email)).toStrictEqual([]);
    expect(api.logger.entries).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        fields: expect.objectContaining({ limit: 'client', ip }),
      }),
    );
  });

  it('signs out at /api/logout: the session ends, the cookie is cleared, and it goes home', async () => {
    const { url } = await linkFor(address());
    const cookie = sessionCookieFrom(await follow(url));
    expect(await (await user(cookie)).json()).toMatchObject({ email: expect.any(String) });

    const out = await follow(`${api.url}/api/logout`, cookie);
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/');
    expect(out.headers.getSetCookie()).toContainEqual(
      expect.stringMatching(/^sid=; Path=\/; Expires=Thu, 01 Jan 1970/),
    );
    expect(await (await user(cookie)).json()).toBeNull();
  });
});

describe('Sign-in links on a public site, and when mail cannot be sent', () => {
  let dataDir: string;
  let api: TestApi;
  let redis: Redis;
  let mailServerPort: number;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'customer-auth-public-'));
    // Nothing listens there until a test starts a mail server: the first hand-over is refused.
    mailServerPort = await freePort();
    api = await startTestApi({
      env: {
        DATA_DIR: dataDir,
        PUBLIC_URL: 'https://shop.example',
        SMTP_URL: `smtp://127.0.0.1:${mailServerPort}`,
      },
    });
    redis = new Redis(testRedisUrl(), { keyPrefix: api.redisKeyPrefix });
  });
  afterAll(async () => {
    await redis?.quit();
    await api?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const ask = (email: string, headers: Record<string, string> = {}) =>
    fetch(`${api.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ email }),
    });

  it('answers 503 "try again" when the mail server refuses, and keeps no token', async () => {
    const response = await ask(`ada-${randomUUID()}@example.com`);
    expect(response.status).toBe(503);
    expect(await response.json()).toStrictEqual({
      error: 'We could not send the email just now. Please try again in a few minutes.',
    });
    expect(await redis.keys('sign-in-token:*')).toStrictEqual([]);
    expect(api.logger.entries).toContainEqual(
      expect.objectContaining({ level: 'error', message: 'sign-in link not sent' }),
    );
  });

  it('links to PUBLIC_URL, whatever Host or X-Forwarded-Host the request claims', async () => {
    const smtp = await startTestSmtpServer(mailServerPort);
    await smtp.open();
    try {
      const email = `ada-${randomUUID()}@example.com`;
      const response = await ask(email, { host: 'evil.example', 'x-forwarded-host': 'evil.example' });
      expect(response.status).toBe(200);
      const [received] = smtp.received;
      const { url, token } = signInLinkIn(await readMail(received?.raw ?? ''));
      expect(url).toBe(`https://shop.example/api/login/callback?token=${token}`);
    } finally {
      await smtp.close();
    }
  });

  it('replaces a session the browser already carried (no session fixation), with a Secure cookie', async () => {
    const planted = await api.sessionCookie({ kind: 'customer', subjectId: 'mallory@example.com' });
    const token = 'B'.repeat(43);
    await redis.set(
      `sign-in-token:${createHash('sha256').update(token).digest('hex')}`,
      'ada@example.com',
      'EX',
      60,
    );
    const signedIn = await fetch(`${api.url}/api/login/callback?token=${token}`, {
      redirect: 'manual',
      headers: { cookie: planted, 'sec-fetch-site': 'none' },
    });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.getSetCookie()[0]).toMatch(/; Secure;/);
    const fresh = sessionCookieFrom(signedIn);
    expect(fresh).not.toBe(planted);
    const whoAmI = (cookie: string) => fetch(`${api.url}/api/auth/user`, { headers: { cookie } });
    expect(await (await whoAmI(planted)).json()).toBeNull();
    expect(await (await whoAmI(fresh)).json()).toMatchObject({ email: 'ada@example.com' });
  });
});
