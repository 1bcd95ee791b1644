import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UploadSigner } from '../src/objects/upload-signature.js';
import { signIn, startTestApi, type TestApi } from './support/api.js';
import { rawRequest } from './support/raw-http.js';

const ADMIN = { username: 'admin', password: 'correct horse battery staple' };
const MAX_BYTES = 10_485_760;
/** A real 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const PNG_SIGNATURE = PNG.subarray(0, 8);
const OBJECT_PATH = /^\/objects\/uploads\/[0-9a-f-]{36}$/;

describe('Image uploads', () => {
  let api: TestApi;
  let dataDir: string;
  let admin: string;
  let customer: string;

  const post = (path: string, cookie?: string, body?: unknown) =>
    fetch(`${api.url}${path}`, {
      method: 'POST',
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  const uploadUrl = async (): Promise<string> => {
    const response = await post('/api/objects/upload', admin);
    expect(response.status).toBe(200);
    const { uploadURL } = (await response.json()) as { uploadURL: string };
    return uploadURL;
  };

  const put = (url: string, body: Buffer | string, contentType = 'image/png') =>
    fetch(url, { method: 'PUT', headers: { 'content-type': contentType }, body });

  const normalize = (imageURL: string, cookie = admin) =>
    post('/api/objects/normalize', cookie, { imageURL });

  const rawGet = (path: string, headers: Record<string, string> = {}) =>
    rawRequest(api.url, path, { headers });

  /** Every file in the uploads folder, temporary ones included: a refused upload must leave nothing behind. */
  const storedFiles = async () => readdir(join(dataDir, 'uploads')).catch(() => [] as string[]);

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'objects-int-'));
    api = await startTestApi({ env: { ADMIN_PASSWORD: ADMIN.password, DATA_DIR: dataDir } });
    admin = await signIn(api.url, ADMIN.username, ADMIN.password);
    customer = await api.sessionCookie({ kind: 'customer', subjectId: 'customer@example.com' });
  });

  afterAll(async () => {
    await api?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  describe('when an admin uploads a PNG to a signed URL', () => {
    let objectPath: string;
    let uploadURL: string;

    beforeAll(async () => {
      uploadURL = await uploadUrl();
      expect((await put(uploadURL, PNG)).status).toBe(200);
      // Uppy reports the URL without its query string; either form names the object.
      const response = await normalize(uploadURL.split('?')[0] as string);
      expect(response.status).toBe(200);
      ({ objectPath } = (await response.json()) as { objectPath: string });
    });

    it('hands out a short-lived URL on this origin', () => {
      const url = new URL(uploadURL);
      expect(url.origin).toBe(api.url);
      expect(url.pathname).toMatch(/^\/api\/objects\/uploads\/[0-9a-f-]{36}$/);
      const expiresIn = Number(url.searchParams.get('expires')) - Date.now() / 1000;
      expect(expiresIn).toBeGreaterThan(14 * 60);
      expect(expiresIn).toBeLessThanOrEqual(15 * 60);
    });

    it('normalizes the upload URL to the object path', () => {
      expect(objectPath).toMatch(OBJECT_PATH);
      expect(objectPath.slice('/objects/uploads/'.length)).toBe(
        new URL(uploadURL).pathname.slice('/api/objects/uploads/'.length),
      );
    });

    it('serves the same bytes as an image browsers may cache for good', async () => {
      const response = await fetch(`${api.url}${objectPath}`);
      expect(response.status).toBe(200);
      expect(Buffer.from(await response.arrayBuffer())).toEqual(PNG);
      expect(response.headers.get('content-type')).toBe('image/png');
      expect(response.headers.get('content-length')).toBe(String(PNG.length));
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('etag')).toMatch(/^"[^"]+"$/);
    });

    it('answers 304 to a browser that has it already', async () => {
      const first = await fetch(`${api.url}${objectPath}`);
      await first.arrayBuffer();
      const again = await rawGet(objectPath, { 'if-none-match': first.headers.get('etag') as string });
      expect(again).toMatchObject({ status: 304, body: '' });
    });

    it('refuses a second file on the same URL: an id is written once', async () => {
      const response = await put(uploadURL, PNG);
      expect(response.status).toBe(409);
      expect(await response.json()).toEqual({ error: 'An image was already uploaded to this URL' });
    });

    it('lets the page show it under the CSP (same origin)', async () => {
      const response = await fetch(`${api.url}${objectPath}`);
      await response.arrayBuffer();
      expect(response.headers.get('content-security-policy')).toContain("img-src 'self'");
    });
  });

  describe('when the signed URL is not valid', () => {
    it('refuses an expired URL with 403', async () => {
      const objectId = randomUUID();
      const { expires, signature } = new UploadSigner(api.sessionSecret).sign(
        objectId,
        new Date(Date.now() - 1000),
      );
      const response = await put(
        `${api.url}/api/objects/uploads/${objectId}?expires=${expires}&signature=${signature}`,
        PNG,
      );
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ error: 'Upload URL has expired' });
    });

    it('refuses a tampered signature, a moved expiry and another object id with 403', async () => {
      const url = new URL(await uploadUrl());
      const signature = url.searchParams.get('signature') as string;
      const tampered = new URL(url);
      tampered.searchParams.set(
        'signature',
        `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`,
      );
      const later = new URL(url);
      later.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
      const otherId = new URL(url);
      otherId.pathname = `/api/objects/uploads/${randomUUID()}`;
      const unsigned = new URL(url);
      unsigned.search = '';
      for (const candidate of [tampered, later, otherId, unsigned]) {
        const response = await put(candidate.href, PNG);
        expect(response.status, candidate.href).toBe(403);
        expect(((await response.json()) as { error: string }).error).toMatch(/^Upload URL /);
      }
      expect((await storedFiles()).length).toBeLessThanOrEqual(1);
    });
  });

  describe('when the file is not acceptable', () => {
    it('refuses more than 10 MB with 413', async () => {
      const url = await uploadUrl();
      const tooBig = Buffer.concat([PNG_SIGNATURE, Buffer.alloc(MAX_BYTES + 1 - PNG_SIGNATURE.length)]);
      const response = await put(url, tooBig).catch((error: unknown) => error);
      expect(response).toBeInstanceOf(Response);
      expect((response as Response).status).toBe(413);
      expect(await (response as Response).json()).toEqual({
        error: 'The file is larger than 10485760 bytes (10 MB)',
      });
      expect((await normalize(url)).status).toBe(404);
    });

    it('counts the bytes of a body sent without a length (chunked) and refuses past 10 MB with 413', async () => {
      const url = await uploadUrl();
      const chunk = Buffer.alloc(1024 * 1024);
      PNG_SIGNATURE.copy(chunk);
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let sent = 0; sent <= MAX_BYTES; sent += chunk.length)
            controller.enqueue(new Uint8Array(chunk));
          controller.close();
        },
      });
      const response = await fetch(url, {
        method: 'PUT',
        headers: { 'content-type': 'image/png' },
        body,
        duplex: 'half',
      } as RequestInit).catch((error: unknown) => error);
      expect(response).toBeInstanceOf(Response);
      expect((response as Response).status).toBe(413);
      expect((await normalize(url)).status).toBe(404);
    });

    it('refuses a text file named .png with 415, whatever Content-Type it claims', async () => {
      const url = await uploadUrl();
      const response = await put(url, 'just some text, not an image at all\n', 'image/png');
      expect(response.status).toBe(415);
      expect(await response.json()).toEqual({ error: 'The file is not a PNG, JPEG, GIF or WebP image' });
      expect((await normalize(url)).status).toBe(404);
    });

    it('refuses an SVG with 415: it can carry script', async () => {
      const url = await uploadUrl();
      const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
      expect((await put(url, svg, 'image/svg+xml')).status).toBe(415);
    });

    it('refuses an empty body with 400', async () => {
      const url = await uploadUrl();
      expect((await put(url, '')).status).toBe(400);
    });

    it('leaves no partial file behind', async () => {
      expect((await storedFiles()).filter((name) => name.endsWith('.part'))).toEqual([]);
    });
  });

  describe('normalize', () => {
    it('answers 404 when nothing was uploaded to the URL', async () => {
      const response = await normalize(await uploadUrl());
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: 'Nothing was uploaded to this URL' });
    });

    it('answers 400 for a URL that is not one of ours', async () => {
      const ours = new URL(await uploadUrl());
      const elsewhere = new URL(ours.pathname, 'https://attacker.example');
      for (const imageURL of [elsewhere.href, 'not a url', `${api.url}/images/products/office.svg`]) {
        const response = await normalize(imageURL);
        expect(response.status, imageURL).toBe(400);
        expect(await response.json()).toEqual({ error: 'imageURL: is not an upload URL of this store' });
      }
      expect((await normalize('')).status).toBe(400);
    });
  });

  describe('when the caller is not an admin', () => {
    it('refuses anonymous callers with 401', async () => {
      expect((await post('/api/objects/upload')).status).toBe(401);
      expect((await post('/api/objects/normalize', undefined, { imageURL: 'x' })).status).toBe(401);
    });

    it('refuses signed-in customers with 403', async () => {
      expect((await post('/api/objects/upload', customer)).status).toBe(403);
      expect((await normalize(`${api.url}/api/objects/uploads/${randomUUID()}`, customer)).status).toBe(403);
    });
  });

  describe('serving', () => {
    it('refuses path traversal', async () => {
      for (const path of [
        '/objects/uploads/..%2F..%2Fsecrets%2Fsession-secret',
        '/objects/uploads/%2e%2e%2f%2e%2e%2fpackage.json',
        '/objects/uploads/../../package.json',
        '/objects/uploads/..',
        '/objects/uploads/.%2e/.%2e/package.json',
      ]) {
        const response = await rawGet(path);
        expect(response.status, path).toBe(404);
        expect(response.body, path).not.toContain('"name"');
      }
    });

    it('answers 404 for an id that holds nothing', async () => {
      expect((await fetch(`${api.url}/objects/uploads/${randomUUID()}`)).status).toBe(404);
    });
  });
});
