import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, signIn } from '../../services/api/test/support/api.js';
import {
  type ApiWithReadModel,
  startApiWithReadModel,
} from '../../services/api/test/support/api-with-read-model.js';
import { rawRequest } from '../../services/api/test/support/raw-http.js';

const ADMIN = { username: 'admin', password: 'correct horse battery staple' };
/** The site's configured origin: image URLs resolve against it, whatever host a request names. */
const PUBLIC_URL = 'https://shop.example';

const REFUSED =
  'imageUrl: must be an image on this site, a path such as /objects/uploads/… (upload the image to get one)';

/** Whether a CSP source list lets a page of `pageOrigin` load `url` (the source forms the store's policy uses). */
function allowedBy(sources: string[], url: URL, pageOrigin: string): boolean {
  return sources.some((source) => {
    if (source === "'self'") return url.origin === pageOrigin;
    if (/^[a-z][\w+.-]*:$/.test(source)) return url.protocol === source;
    const host = /^(https?):\/\/(\*\.)?([^/]+)$/.exec(source);
    if (!host) return false;
    const [, scheme, wildcard, name] = host as unknown as [string, string, string | undefined, string];
    if (url.protocol !== `${scheme}:`) return false;
    return wildcard ? url.hostname.endsWith(`.${name}`) : url.host === name;
  });
}

describe('Product image URLs and the page policy', () => {
  let store: ApiWithReadModel;
  let admin: string;
  /** The img-src of the store's pages. */
  let imgSrc: string[];

  const saveImage = (imageUrl: string, headers: Record<string, string> = {}) =>
    fetch(`${store.api.url}/api/products`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: admin, ...headers },
      body: JSON.stringify({
        name: 'Office 2024',
        description: 'A license.',
        imageUrl,
        category: 'Office',
        platform: 'Windows',
        regularPrice: '19.99',
      }),
    });

  beforeAll(async () => {
    store = await startApiWithReadModel({
      env: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, PUBLIC_URL },
    });
    admin = await signIn(store.api.url, ADMIN.username, ADMIN.password);
    // A browser's navigation to Sign In: a document, with the policy every page of the store has.
    const page = await fetch(`${store.api.url}/api/login`, {
      redirect: 'manual',
      headers: { accept: 'text/html' },
    });
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const policy = page.headers.get('content-security-policy') ?? '';
    const directive = policy.split(';').find((part) => part.trim().startsWith('img-src ')) ?? '';
    imgSrc = directive.trim().split(/\s+/).slice(1);
    expect(imgSrc.length).toBeGreaterThan(0);
  });
  afterAll(() => store?.stop());

  it.each([
    [
      '/objects/uploads/3f2b8c1e-9d4a-4c7b-8e6f-1a2b3c4d5e6f',
      '/objects/uploads/3f2b8c1e-9d4a-4c7b-8e6f-1a2b3c4d5e6f',
    ],
    ['/images/products/office.svg?v=2', '/images/products/office.svg?v=2'],
    ['images/products/office.svg', '/images/products/office.svg'],
    [`${PUBLIC_URL}/images/products/office.svg`, '/images/products/office.svg'],
    ['/images/../images/products/office.svg', '/images/products/office.svg'],
  ])('stores %s as the path %s, which the page policy lets a page load', async (given, stored) => {
    const response = await saveImage(given);
    expect(response.status, await response.clone().text()).toBe(201);
    expect(await response.json()).toMatchObject({ imageUrl: stored });
    expect(allowedBy(imgSrc, new URL(stored, PUBLIC_URL), PUBLIC_URL)).toBe(true);
  });

  it.each([
    '/\\evil.example/x.png',
    '\\\\evil.example/x.png',
    '/images\\..\\x.png',
    '//evil.example/x.png',
    'https://cdn.example/x.png',
    'http://shop.example/x.png',
    'javascript:alert(1)',
    'data:image/png;base64,iVBORw0KGgo=',
  ])('refuses %s with a 400, an image the page policy would not load either', async (given) => {
    const response = await saveImage(given);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: REFUSED });
    if (URL.canParse(given) && !given.startsWith('data:') && !given.startsWith('javascript:')) {
      expect(allowedBy(imgSrc, new URL(given), PUBLIC_URL)).toBe(false);
    }
  });

  it.each(['/x\u0000.png', '/x\t.png', '/x\u202e.png'])('refuses %j: a control character', async (given) => {
    const response = await saveImage(given);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(
      /^imageUrl: contains a character that cannot be stored \(U\+[0-9A-F]{4}\)$/,
    );
  });

  it("resolves against the configured origin, never the request's", async () => {
    const own = await saveImage(`${store.api.url}/images/products/office.svg`);
    expect(own.status).toBe(400);
    const named = await rawRequest(store.api.url, '/api/products', {
      method: 'POST',
      headers: { host: 'evil.example', 'content-type': 'application/json', cookie: admin },
      body: JSON.stringify({
        name: 'Office 2024',
        description: 'A license.',
        imageUrl: 'http://evil.example/x.png',
        category: 'Office',
        platform: 'Windows',
        regularPrice: '19.99',
      }),
    });
    expect({ status: named.status, body: JSON.parse(named.body) }).toEqual({
      status: 400,
      body: { error: REFUSED },
    });
  });

  it('refuses the same URLs in a change to a product', async () => {
    const created = await saveImage('/images/products/office.svg');
    const { id } = (await created.json()) as { id: string };
    const changed = await callApi(store.api.url, 'PATCH', `/api/products/${id}`, {
      cookie: admin,
      body: { imageUrl: '/\\evil.example/x.png' },
    });
    expect(changed.status).toBe(400);
    expect(await changed.json()).toEqual({ error: REFUSED });
  });
});
