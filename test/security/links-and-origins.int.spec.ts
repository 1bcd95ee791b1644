// Links and origins come from configuration (PUBLIC_URL, or http://localhost:PORT), never from a request's Host
// header; a GET that signs someone in or out acts only on the visitor's own navigation.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionCookieFrom, startTestApi, type TestApi } from '../../services/api/test/support/api.js';
import { rawRequest } from '../../services/api/test/support/raw-http.js';
import { mailFiles, type ReadMail, signInLinkIn } from '../support/mail.js';

/** PUBLIC_URL's default for the configured port (5000): where links point when it is unset. */
const DEFAULT_ORIGIN = 'http://localhost:5000';

let dataDir: string;
let api: TestApi;
let clients = 0;
/** Each test asks from its own client address (TRUST_PROXY=loopback), so the sign-in throttle keeps them apart. */
const client = () => `203.0.113.${++clients}`;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'links-and-origins-'));
  api = await startTestApi({ env: { DATA_DIR: dataDir, TRUST_PROXY: 'loopback' } });
});
afterAll(async () => {
  await api?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** Asks for a sign-in link with the given request headers and returns the link the e-mail carries. */
async function signInLink(
  headers: Record<string, string> = {},
): Promise<{ url: string; token: string; mail: ReadMail }> {
  const before = new Set((await mailFiles(dataDir)).keys());
  const asked = await fetch(`${api.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': client(), ...headers },
    body: JSON.stringify({ email: `ada-${randomUUID()}@example.com` }),
  });
  expect(asked.status).toBe(200);
  const sent = [...(await mailFiles(dataDir))].filter(([name]) => !before.has(name));
  expect(sent).toHaveLength(1);
  const mail = (sent[0] as [string, ReadMail])[1];
  return { ...signInLinkIn(mail), mail };
}

/** The link as this test's api serves it (it listens on a port of its own, not on the configured one). */
const onThisApi = (url: string) => url.replace(DEFAULT_ORIGIN, api.url);

/** Who the api takes the session for: the customer, or null when it is not signed in. */
const whoAmI = async (cookie: string) =>
  (await (await fetch(`${api.url}/api/auth/user`, { headers: { cookie } })).json()) as {
    email: string;
  } | null;

describe('Sign-in links', () => {
  it('point at the configured origin when PUBLIC_URL is unset, whatever Host the request claims', async () => {
    const { url, mail } = await signInLink({
      host: 'attacker.example',
      'x-forwarded-host': 'attacker.example',
    });
    expect(url.startsWith(`${DEFAULT_ORIGIN}/api/login/callback?token=`)).toBe(true);
    expect(`${mail.text}${mail.html}`).not.toContain('attacker.example');
  });

  it('sign nobody in from a link on another site: a page whose button does it, the token kept', async () => {
    const { url, token } = await signInLink();
    for (const site of ['cross-site', 'same-site', undefined]) {
      const page = await fetch(onThisApi(url), {
        redirect: 'manual',
        headers: site ? { 'sec-fetch-site': site } : {},
      });
      expect(page.status).toBe(303);
      expect(page.headers.get('location')).toBe(`/sign-in/confirm#token=${token}`);
      expect(page.headers.getSetCookie()).toStrictEqual([]);
    }
    const post = (origin: string) =>
      fetch(`${api.url}/api/login/callback`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin },
        body: JSON.stringify({ token }),
      });
    expect((await post('https://attacker.example')).status).toBe(403);

    const pressed = await post(api.url);
    expect(pressed.status).toBe(204);
    expect(await whoAmI(sessionCookieFrom(pressed))).not.toBeNull();
  });
});

describe('Sign-out', () => {
  it("happens on the visitor's own navigation or a POST from this site, never from a link elsewhere", async () => {
    const { url } = await signInLink();
    const signedIn = await fetch(onThisApi(url), {
      redirect: 'manual',
      headers: { 'sec-fetch-site': 'none' },
    });
    const cookie = sessionCookieFrom(signedIn);

    for (const site of ['cross-site', 'same-site', undefined]) {
      const page = await fetch(`${api.url}/api/logout`, {
        redirect: 'manual',
        headers: { cookie, ...(site ? { 'sec-fetch-site': site } : {}) },
      });
      expect(page.status).toBe(303);
      expect(page.headers.get('location')).toBe('/sign-out');
      expect(await whoAmI(cookie)).not.toBeNull();
    }
    const forged = await fetch(`${api.url}/api/logout`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, origin: 'https://attacker.example' },
    });
    expect(forged.status).toBe(403);
    expect(await whoAmI(cookie)).not.toBeNull();

    const out = await fetch(`${api.url}/api/logout`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, origin: api.url },
    });
    expect(out.status).toBe(204);
    expect(await whoAmI(cookie)).toBeNull();
  });
});

describe('The same-origin check', () => {
  const adminLogin = (headers: Record<string, string>) =>
    fetch(`${api.url}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ username: 'nobody', password: 'wrong password here' }),
    });

  it('never takes the Host header of the request as this site', async () => {
    // fetch sends the Host of the URL whatever the headers say; a raw request sends the forged one.
    const body = JSON.stringify({ username: 'nobody', password: 'wrong password here' });
    const response = await rawRequest(api.url, '/api/admin/login', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: 'http://attacker.example',
        host: 'attacker.example',
      },
      body,
    });
    expect(response.status).toBe(403);
    expect(JSON.parse(response.body)).toStrictEqual({ error: 'Cross-site request refused' });
  });

  it('takes the loopback origins of this machine on a local run without PUBLIC_URL', async () => {
    expect((await adminLogin({ origin: api.url })).status).toBe(401);
    expect((await adminLogin({ origin: DEFAULT_ORIGIN })).status).toBe(401);
  });
});

describe('With PUBLIC_URL set', () => {
  let site: TestApi;
  beforeAll(async () => {
    site = await startTestApi({ env: { PUBLIC_URL: 'https://shop.example' } });
  });
  afterAll(async () => {
    await site?.stop();
  });

  it('compares scheme, host and port with it, and nothing else passes', async () => {
    const withOrigin = (origin: string) =>
      fetch(`${site.url}/api/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin, host: new URL(origin).host },
        body: JSON.stringify({ username: 'nobody', password: 'wrong password here' }),
      });
    expect((await withOrigin('https://shop.example')).status).toBe(401);
    for (const other of [
      'http://shop.example',
      'https://shop.example:8443',
      'https://evil.shop.example',
      site.url,
    ]) {
      expect((await withOrigin(other)).status, other).toBe(403);
    }
  });
});
