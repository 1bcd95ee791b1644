import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startTestApi, type TestApi } from './support/api.js';
import { rawRequest } from './support/raw-http.js';
import { writeWebDist } from './support/web-dist.js';

const ADMIN = { username: 'admin', password: 'correct horse battery staple' };
/** A real 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const KB = 1024;
const MB = 1024 * KB;

/**
 * Requests no browser of ours sends: bodies past the limits, broken JSON, the wrong content types, paths that
 * climb out of the folders files are served from. Each gets a 4xx that says what is wrong, and nothing leaks.
 */
describe('Hostile requests', () => {
  let api: TestApi;
  let dataDir: string;
  let webDist: string;
  let admin: string;
  /** A file beside the uploads folder that no URL may reach. */
  const canary = `CANARY-${randomBytes(8).toString('hex')}`;

  const send = (method: string, path: string, body: string | Buffer, contentType: string, cookie = admin) =>
    fetch(`${api.url}${path}`, {
      method,
      headers: { cookie, 'content-type': contentType },
      body,
    });
  const answer = async (response: Response) => ({
    status: response.status,
    type: response.headers.get('content-type'),
    body: await response.json(),
  });

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'hostile-requests-'));
    await writeFile(join(dataDir, 'canary.txt'), canary);
    webDist = await writeWebDist();
    api = await startTestApi({
      env: { ADMIN_PASSWORD: ADMIN.password, DATA_DIR: dataDir, WEB_DIST: webDist },
    });
    admin = await signIn(api.url, ADMIN.username, ADMIN.password);
  });
  afterAll(async () => {
    await api?.stop();
    await rm(dataDir, { recursive: true, force: true });
    await rm(webDist, { recursive: true, force: true });
  });

  describe('a body over its route’s limit is refused with 413 naming the limit', () => {
    const json = (bytes: number) => JSON.stringify({ name: 'x'.repeat(bytes) });
    const keys = (bytes: number) =>
      'KEY-'
        .padEnd(40, 'X')
        .concat('\n')
        .repeat(Math.ceil(bytes / 41));

    // The 10 MB image upload has its own streaming check: see objects.int.spec.ts.
    it.each([
      ['POST', '/api/products', 'application/json', '100 kB', json(100 * KB)],
      ['PATCH', `/api/products/${randomUUID()}`, 'application/json', '100 kB', json(100 * KB)],
      ['POST', '/paypal/order', 'application/json', '100 kB', json(100 * KB)],
      ['POST', '/api/objects/normalize', 'application/json', '10 kB', json(10 * KB)],
      ['POST', '/api/login', 'application/json', '100 kB', json(100 * KB)],
      ['POST', '/api/license-keys/import', 'application/json', '1 MB', json(MB)],
      ['POST', `/api/license-keys/import?productId=${randomUUID()}`, 'text/csv', '1 MB', keys(MB)],
      ['POST', `/api/license-keys/import?productId=${randomUUID()}`, 'text/plain', '1 MB', keys(MB)],
      ['POST', '/paypal/webhook', 'application/json', '1 MB', json(MB)],
    ])('%s %s as %s (at most %s)', async (method, path, contentType, limit, body) => {
      expect(await answer(await send(method, path, body, contentType))).toEqual({
        status: 413,
        type: expect.stringMatching(/^application\/json/),
        body: { error: `Request body too large: at most ${limit}` },
      });
    });

    it('takes an import just under 1 MB (the limit is the import’s, not the API’s 100 kB)', async () => {
      const response = await send(
        'POST',
        `/api/license-keys/import?productId=${randomUUID()}`,
        keys(MB - 2 * KB),
        'text/csv',
      );
      expect(await answer(response)).toEqual({
        status: 404,
        type: expect.stringMatching(/^application\/json/),
        body: { error: expect.stringMatching(/product/i) },
      });
    });
  });

  describe('malformed JSON is a 400 saying so, on every parser', () => {
    it.each([
      ['/api/products', '{"name": "Office",'],
      ['/api/admin/users', '{"username": }'],
      ['/api/license-keys/import', "{'productId': 1}"],
      ['/api/objects/normalize', '{"imageURL": "x"'],
      ['/paypal/order', '[1, 2,]'],
      [`/paypal/order/${'A'.repeat(17)}/capture`, 'nul'],
      ['/api/products', '{"__proto__": {"isAdmin": true}, }'],
    ])('POST %s %s', async (path, body) => {
      expect(await answer(await send('POST', path, body, 'application/json'))).toEqual({
        status: 400,
        type: expect.stringMatching(/^application\/json/),
        body: { error: 'Malformed JSON body' },
      });
    });

    it("answers the PayPal emulator's way on its own mount", async () => {
      const response = await send(
        'POST',
        '/paypal-sandbox/buyer/orders/X/approve',
        '{"choice":',
        'application/json',
      );
      expect(await answer(response)).toMatchObject({
        status: 400,
        body: { name: 'INVALID_REQUEST', details: [{ issue: 'MALFORMED_REQUEST_JSON' }] },
      });
    });
  });

  describe('the wrong content type is a 4xx that says what to send', () => {
    it.each([
      ['/api/products', '{"name":"Office"}', 'text/plain', 400, 'Request body must be a JSON object'],
      [
        '/api/products',
        'name=Office',
        'application/x-www-form-urlencoded',
        400,
        'Request body must be a JSON object',
      ],
      [
        '/api/products',
        '--x\r\n\r\n--x--',
        'multipart/form-data; boundary=x',
        400,
        'Request body must be a JSON object',
      ],
      [
        '/api/products',
        '{"name":"Office"}',
        'application/json; charset=iso-8859-1',
        415,
        'Unsupported charset',
      ],
      [
        '/api/objects/normalize',
        'imageURL',
        'application/octet-stream',
        400,
        'Request body must be a JSON object',
      ],
      [
        '/api/license-keys/import',
        '<keys/>',
        'application/xml',
        415,
        'Send the keys as JSON {productId, keys}, or as a text/csv or text/plain body with ?productId=',
      ],
    ])('POST %s as %s', async (path, body, contentType, status, error) => {
      expect(await answer(await send('POST', path, body, contentType))).toEqual({
        status,
        type: expect.stringMatching(/^application\/json/),
        body: { error },
      });
    });

    it.each([
      ['compress', 415, 'Unsupported content encoding'],
      ['gzip', 400, 'Request body does not match its Content-Encoding'],
      ['deflate', 400, 'Request body does not match its Content-Encoding'],
    ])('POST with Content-Encoding %s that is not what it says', async (encoding, status, error) => {
      const response = await fetch(`${api.url}/api/products`, {
        method: 'POST',
        headers: { cookie: admin, 'content-type': 'application/json', 'content-encoding': encoding },
        body: '{"name":"Office"}',
      });
      expect(await answer(response)).toEqual({
        status,
        type: expect.stringMatching(/^application\/json/),
        body: { error },
      });
    });
  });

  describe('paths that climb out of a served folder', () => {
    const climbs = [
      '../../canary.txt',
      '..%2f..%2fcanary.txt',
      '%2e%2e/%2e%2e/canary.txt',
      '%2e%2e%2f%2e%2e%2fcanary.txt',
      '%2E%2E%2F%2E%2E%2Fcanary.txt',
      '%252e%252e%252f%252e%252e%252fcanary.txt',
      '..%5c..%5ccanary.txt',
      '..\\..\\canary.txt',
      '..%c0%af..%c0%afcanary.txt',
      '.%2e/.%2e/canary.txt',
      '..%00/canary.txt',
      'canary.txt%00.png',
      '../../../../../../etc/passwd',
      '..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd',
      '%2fetc%2fpasswd',
      '....//....//canary.txt',
    ];
    const leaks = (body: string) => body.includes(canary) || body.includes('root:');

    it.each(climbs)('GET /objects/uploads/%s is a 4xx and shows no file', async (climb) => {
      const response = await rawRequest(api.url, `/objects/uploads/${climb}`);
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      expect(leaks(response.body)).toBe(false);
    });

    it.each(climbs)('GET /images/%s and /assets/%s show no file outside them', async (climb) => {
      for (const folder of ['/images/', '/assets/', '/']) {
        const response = await rawRequest(api.url, `${folder}${climb}`);
        expect(response.status, folder).toBeLessThan(500);
        expect(leaks(response.body), folder).toBe(false);
      }
    });

    it('PUT to an upload URL with a climb in the id is a 4xx and writes nothing outside the uploads folder', async () => {
      const upload = await fetch(`${api.url}/api/objects/upload`, {
        method: 'POST',
        headers: { cookie: admin },
      });
      const signed = new URL(((await upload.json()) as { uploadURL: string }).uploadURL);
      const id = signed.pathname.split('/').pop() as string;
      const before = await readdir(dataDir);
      for (const path of [
        ...climbs.map((climb) => `/api/objects/uploads/${climb}`),
        `/api/objects/uploads/${id}/..%2f..%2f..%2fcanary.txt`,
        `/api/objects/uploads/${id}%2f..%2f..%2f..%2fcanary.txt`,
        `/api/objects/uploads/..%2f${id}`,
        `/api/objects/uploads/${id}/../../../canary.txt`,
      ]) {
        const response = await rawRequest(api.url, `${path}${signed.search}`, {
          method: 'PUT',
          headers: { 'content-type': 'image/png' },
          body: PNG,
        });
        expect(response.status, path).toBeGreaterThanOrEqual(400);
        expect(response.status, path).toBeLessThan(500);
      }
      expect(await readdir(dataDir)).toEqual(before);
      expect(await readFile(join(dataDir, 'canary.txt'), 'utf8')).toBe(canary);
      expect(await readdir(join(dataDir, 'uploads')).catch(() => [])).toEqual([]);
    });
  });
});
