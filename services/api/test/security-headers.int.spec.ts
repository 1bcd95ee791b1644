import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailFiles, type ReadMail, signInLinkIn } from '../../../test/support/mail.js';
import { startTestApi, type TestApi } from './support/api.js';
import { THEME_SCRIPT_HASH, writeWebDist } from './support/web-dist.js';

const ADMIN = { username: 'admin', password: 'correct horse battery staple' };

/**
 * Every kind of answer the app gives. What a browser may render or run (a document) carries the page's full policy;
 * what it only reads as data (JSON) carries the strict API set.
 */
const ANSWERS: Array<{
  what: string;
  path: string;
  accept?: string;
  status: number;
  kind: 'document' | 'data';
}> = [
  { what: 'a page of the web client', path: '/', accept: 'text/html', status: 200, kind: 'document' },
  {
    what: 'a client-side route',
    path: '/admin/products',
    accept: 'text/html',
    status: 200,
    kind: 'document',
  },
  {
    what: 'the server-rendered sign-in page',
    path: '/api/login',
    accept: 'text/html',
    status: 200,
    kind: 'document',
  },
  { what: 'API JSON', path: '/api/admin/status', status: 200, kind: 'data' },
  { what: 'a hashed asset', path: '/assets/app-1234.js', status: 200, kind: 'document' },
  {
    what: 'a product image',
    path: '/images/products/adobe-premiere-elements-2024.svg',
    status: 200,
    kind: 'document',
  },
  {
    what: 'a missing uploaded image',
    path: '/objects/uploads/00000000-0000-4000-8000-000000000000',
    status: 404,
    kind: 'data',
  },
  { what: 'an unknown API path', path: '/api/nope', status: 404, kind: 'data' },
  { what: 'an unknown file', path: '/nope.json', accept: 'application/json', status: 404, kind: 'data' },
  // The read model is left unmigrated (no projections run here): the catalogue is a genuine server fault.
  { what: 'a server fault', path: '/api/products', status: 500, kind: 'data' },
  {
    what: "the PayPal emulator's SDK",
    path: '/paypal-sandbox/sdk/js?client-id=x',
    status: 200,
    kind: 'document',
  },
  {
    what: "a PayPal emulator's refusal",
    path: '/paypal-sandbox/v2/checkout/orders/X',
    status: 401,
    kind: 'data',
  },
];
const DOCUMENTS = ANSWERS.filter((answer) => answer.kind === 'document');
const DATA = ANSWERS.filter((answer) => answer.kind === 'data');

/** The CSP as a map of directive → sources. */
const cspOf = (response: Response) =>
  new Map(
    (response.headers.get('content-security-policy') ?? '')
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name as string, sources]),
  );

describe('Security headers', () => {
  let webDist: string;
  let dataDir: string;
  let plain: TestApi;
  let https: TestApi;

  const get = (api: TestApi, path: string, accept = '*/*') =>
    fetch(`${api.url}${path}`, { headers: { accept } });

  beforeAll(async () => {
    webDist = await writeWebDist();
    dataDir = await mkdtemp(join(tmpdir(), 'security-headers-'));
    const env = { ADMIN_PASSWORD: ADMIN.password, WEB_DIST: webDist };
    plain = await startTestApi({ env: { ...env, DATA_DIR: join(dataDir, 'plain') } });
    https = await startTestApi({
      env: { ...env, DATA_DIR: join(dataDir, 'https'), PUBLIC_URL: 'https://shop.example' },
    });
  });
  afterAll(async () => {
    await plain?.stop();
    await https?.stop();
    await rm(webDist, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  });

  /** What documents and data alike carry: no sniffing, no framing, same-origin referrers and resources. */
  const expectEveryAnswersHeaders = (headers: Headers) =>
    expect({
      nosniff: headers.get('x-content-type-options'),
      referrer: headers.get('referrer-policy'),
      frames: headers.get('x-frame-options'),
      resources: headers.get('cross-origin-resource-policy'),
      poweredBy: headers.get('x-powered-by'),
    }).toEqual({
      nosniff: 'nosniff',
      referrer: 'same-origin',
      frames: 'DENY',
      resources: 'same-origin',
      poweredBy: null,
    });

  /** Checks every document's CSP and policies. */
  const expectDocumentHeaders = (response: Response) => {
    const csp = cspOf(response);
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('script-src')).toEqual([
      "'self'",
      THEME_SCRIPT_HASH,
      'https://www.paypal.com',
      'https://*.paypal.com',
      'https://*.paypalobjects.com',
    ]);
    expect(csp.get('script-src-attr')).toEqual(["'none'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'self'"]);
    expect(csp.get('form-action')).toEqual(["'self'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    for (const sources of csp.values()) {
      expect(sources).not.toContain("'unsafe-eval'");
      expect(sources).not.toContain('*');
    }
    expect(csp.get('script-src')).not.toContain("'unsafe-inline'");
    const { headers } = response;
    expectEveryAnswersHeaders(headers);
    expect(headers.get('cross-origin-opener-policy')).toBe('same-origin-allow-popups');
    const permissions = headers.get('permissions-policy') ?? '';
    for (const feature of ['camera', 'microphone', 'geolocation', 'usb']) {
      expect(permissions).toContain(`${feature}=()`);
    }
  };

  describe.each(DOCUMENTS)('on $what ($path)', ({ path, accept, status }) => {
    it('sends a CSP that allows no inline or foreign script, no plugins, no <base> and no framing, nosniff, same-origin referrers, a permissions policy and an opener policy', async () => {
      const response = await get(plain, path, accept);
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).not.toMatch(/json/);
      expectDocumentHeaders(response);
    });

    it('asks browsers for https only when the store is served over https', async () => {
      expect((await get(plain, path, accept)).headers.get('strict-transport-security')).toBeNull();
      expect(cspOf(await get(plain, path, accept)).has('upgrade-insecure-requests')).toBe(false);
      const secure = await get(https, path, accept);
      expect(secure.headers.get('strict-transport-security')).toMatch(/^max-age=31536000; includeSubDomains/);
      expect(cspOf(secure).has('upgrade-insecure-requests')).toBe(true);
    });
  });

  describe.each(DATA)('on $what ($path)', ({ path, accept, status }) => {
    it('sends a CSP that allows nothing, nosniff, no framing, same-origin referrers and resources', async () => {
      const response = await get(plain, path, accept);
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(Object.fromEntries(cspOf(response))).toEqual({
        'default-src': ["'none'"],
        'frame-ancestors': ["'none'"],
      });
      expectEveryAnswersHeaders(response.headers);
    });

    it('asks browsers for https only when the store is served over https', async () => {
      expect((await get(plain, path, accept)).headers.get('strict-transport-security')).toBeNull();
      const secure = await get(https, path, accept);
      expect(secure.headers.get('strict-transport-security')).toMatch(/^max-age=31536000; includeSubDomains/);
    });
  });

  it("sends a page the store's whole policy: helmet's defaults, PayPal's origins, no framing, and https only under https", async () => {
    const paypal = ['https://www.paypal.com', 'https://*.paypal.com', 'https://*.paypalobjects.com'];
    const policy = {
      'default-src': ["'self'"],
      'base-uri': ["'self'"],
      'font-src': ["'self'", 'https:', 'data:'],
      'form-action': ["'self'"],
      'frame-ancestors': ["'none'"],
      'img-src': ["'self'", 'data:', 'blob:', ...paypal],
      'object-src': ["'none'"],
      'script-src': ["'self'", THEME_SCRIPT_HASH, ...paypal],
      'script-src-attr': ["'none'"],
      'style-src': ["'self'", 'https:', "'unsafe-inline'"],
      'frame-src': ["'self'", ...paypal],
      'connect-src': ["'self'", ...paypal],
    };
    const documentOnly = {
      'cross-origin-opener-policy': 'same-origin-allow-popups',
      'origin-agent-cluster': '?1',
      'x-dns-prefetch-control': 'off',
      'x-download-options': 'noopen',
      'x-permitted-cross-domain-policies': 'none',
      'x-xss-protection': '0',
      'permissions-policy':
        'accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), usb=(), payment=(self "https://www.paypal.com")',
    };
    const headersOf = (response: Response, names: string[]) =>
      Object.fromEntries(names.map((name) => [name, response.headers.get(name)]));
    const page = await get(plain, '/', 'text/html');
    expect(Object.fromEntries(cspOf(page))).toEqual(policy);
    expect(headersOf(page, Object.keys(documentOnly))).toEqual(documentOnly);
    const secure = await get(https, '/', 'text/html');
    expect(Object.fromEntries(cspOf(secure))).toEqual({ ...policy, 'upgrade-insecure-requests': [] });
    expect(secure.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    const data = await get(https, '/api/admin/status');
    expect(headersOf(data, Object.keys(documentOnly))).toEqual(
      Object.fromEntries(Object.keys(documentOnly).map((name) => [name, null])),
    );
    expect(data.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
  });

  it("sends a page's full policy with its 304, which a browser may merge into the page it keeps", async () => {
    const page = await get(plain, '/', 'text/html');
    const etag = page.headers.get('etag') as string;
    expect(etag).toBeTruthy();
    const revalidated = await fetch(`${plain.url}/`, {
      headers: { accept: 'text/html', 'if-none-match': etag },
    });
    expect(revalidated.status).toBe(304);
    expectDocumentHeaders(revalidated);
  });

  describe('session cookies', () => {
    const adminCookie = async (api: TestApi) => {
      const response = await fetch(`${api.url}/api/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(ADMIN),
      });
      expect(response.status).toBe(200);
      return response.headers.getSetCookie();
    };

    const customerCookie = async (api: TestApi, apiDataDir: string) => {
      const asked = await fetch(`${api.url}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'ada@example.com' }),
      });
      expect(asked.status).toBe(200);
      const [mail] = [...(await mailFiles(apiDataDir)).values()];
      expect(mail).toBeDefined();
      const { token } = signInLinkIn(mail as ReadMail);
      const signedIn = await fetch(`${api.url}/api/login/callback?token=${encodeURIComponent(token)}`, {
        redirect: 'manual',
        headers: { 'sec-fetch-site': 'none' },
      });
      return signedIn.headers.getSetCookie();
    };

    const attributesOf = (cookies: string[]) => {
      const sid = cookies.find((cookie) => cookie.startsWith('sid='));
      expect(sid).toBeDefined();
      return (sid as string)
        .split(';')
        .slice(1)
        .map((attribute) => attribute.trim().toLowerCase());
    };

    it("are HttpOnly and SameSite=Lax, and Secure under https: the admin's", async () => {
      expect(attributesOf(await adminCookie(plain))).toEqual(
        expect.arrayContaining(['httponly', 'samesite=lax']),
      );
      expect(attributesOf(await adminCookie(plain))).not.toContain('secure');
      expect(attributesOf(await adminCookie(https))).toEqual(
        expect.arrayContaining(['httponly', 'samesite=lax', 'secure']),
      );
    });

    it("are HttpOnly and SameSite=Lax, and Secure under https: the customer's", async () => {
      const plainCookie = attributesOf(await customerCookie(plain, join(dataDir, 'plain')));
      expect(plainCookie).toEqual(expect.arrayContaining(['httponly', 'samesite=lax']));
      expect(plainCookie).not.toContain('secure');
      expect(attributesOf(await customerCookie(https, join(dataDir, 'https')))).toEqual(
        expect.arrayContaining(['httponly', 'samesite=lax', 'secure']),
      );
    });
  });
});
