import { readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from './support/api.js';
import { type ApiWithReadModel, startApiWithReadModel } from './support/api-with-read-model.js';
import { openLiveStream } from './support/live-stream.js';
import { writeWebDist } from './support/web-dist.js';

const ADMIN = { username: 'admin', password: 'correct horse battery staple' };
/** A hashed asset well over the compression threshold, with the copies the build writes beside it. */
const ASSET = '/assets/index-5f3a9c.js';
const ASSET_SOURCE = Buffer.from(
  Array.from({ length: 200 }, (_, index) => `export const line${index} = 'storefront';\n`).join(''),
);

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The bytes as they came over the wire, before any decoding. */
  body: Buffer;
}

/** A GET with exactly these headers (fetch would add its own Accept-Encoding and decode the body). */
function get(url: string, path: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url);
    request({ hostname, port, path, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
    })
      .on('error', reject)
      .end();
  });
}

const decoded = ({ headers, body }: Answer) =>
  headers['content-encoding'] === 'br'
    ? brotliDecompressSync(body)
    : headers['content-encoding'] === 'gzip'
      ? gunzipSync(body)
      : body;

/** Answers compressed by what the request accepts: the built client's files from their copies, the rest on the fly. */
describe('Compression', () => {
  let store: ApiWithReadModel;
  let webDist: string;
  let url: string;

  beforeAll(async () => {
    webDist = await writeWebDist();
    const asset = join(webDist, ASSET);
    await writeFile(asset, ASSET_SOURCE);
    await writeFile(`${asset}.br`, brotliCompressSync(ASSET_SOURCE));
    await writeFile(`${asset}.gz`, gzipSync(ASSET_SOURCE));
    store = await startApiWithReadModel({
      env: { ADMIN_PASSWORD: ADMIN.password, WEB_DIST: webDist },
      liveStreams: { heartbeatMs: 50 },
    });
    url = store.api.url;
    // Enough products that the catalogue's answer is well over the threshold.
    for (let index = 0; index < 12; index++) await store.productWithKeys(0);
  });
  afterAll(async () => {
    await store?.stop();
    if (webDist) await rm(webDist, { recursive: true, force: true });
  });

  describe("the built client's files", () => {
    it('sends the brotli copy to a browser that accepts it, still cached for good, and says it varies', async () => {
      const answer = await get(url, ASSET, { 'accept-encoding': 'gzip, deflate, br' });
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBe('br');
      expect(answer.headers['content-type']).toMatch(/^text\/javascript/);
      expect(answer.headers.vary).toMatch(/Accept-Encoding/i);
      expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(answer.body.equals(await readFile(join(webDist, `${ASSET}.br`)))).toBe(true);
      expect(decoded(answer).equals(ASSET_SOURCE)).toBe(true);
    });

    it('sends the gzip copy when brotli is not accepted, or refused with q=0', async () => {
      for (const accepted of ['gzip', 'br;q=0, gzip']) {
        const answer = await get(url, ASSET, { 'accept-encoding': accepted });
        expect(answer.headers['content-encoding']).toBe('gzip');
        expect(decoded(answer).equals(ASSET_SOURCE)).toBe(true);
      }
    });

    it('sends the file as it is to a client that accepts no encoding, with the same Vary', async () => {
      for (const headers of [{}, { 'accept-encoding': 'identity' }] as Record<string, string>[]) {
        const answer = await get(url, ASSET, headers);
        expect(answer.status).toBe(200);
        expect(answer.headers['content-encoding']).toBeUndefined();
        expect(answer.headers.vary).toMatch(/Accept-Encoding/i);
        expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(answer.body.equals(ASSET_SOURCE)).toBe(true);
      }
    });

    it('answers a missing asset 404, not one of the copies of another', async () => {
      const answer = await get(url, '/assets/missing.js', { 'accept-encoding': 'br' });
      expect(answer.status).toBe(404);
    });
  });

  describe('API answers', () => {
    it("compresses the catalogue's answer, with an ETag per encoding that revalidates to 304", async () => {
      const plain = await get(url, '/api/products', {});
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.length).toBeGreaterThan(1024);
      for (const encoding of ['br', 'gzip']) {
        const answer = await get(url, '/api/products', { 'accept-encoding': encoding });
        expect(answer.headers['content-encoding']).toBe(encoding);
        expect(answer.headers.vary).toMatch(/Accept-Encoding/i);
        expect(answer.body.length).toBeLessThan(plain.body.length / 2);
        expect(decoded(answer).equals(plain.body)).toBe(true);
        expect(answer.headers.etag).not.toBe(plain.headers.etag);
        const again = await get(url, '/api/products', {
          'accept-encoding': encoding,
          'if-none-match': String(answer.headers.etag),
        });
        expect(again.status).toBe(304);
      }
    });

    it('compresses an answer made on the request (an image of the public files) and leaves a small one alone', async () => {
      const image = await get(url, '/images/products/windows-11-pro.svg', { 'accept-encoding': 'gzip' });
      expect(image.status).toBe(200);
      expect(image.headers['content-encoding']).toBe('gzip');
      expect(decoded(image).toString()).toMatch(/^<svg/);
      const small = await get(url, '/api/payments/config', { 'accept-encoding': 'gzip, br' });
      expect(small.status).toBe(200);
      expect(small.headers['content-encoding']).toBeUndefined();
    });

    it('leaves a server-sent event stream uncompressed, so each event arrives as it is written', async () => {
      const admin = await signIn(url, ADMIN.username, ADMIN.password);
      const stream = await openLiveStream(url, admin);
      expect(stream.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(stream.response.headers.get('content-encoding')).toBeNull();
      expect(await stream.next()).toEqual({ comment: 'heartbeat' });
      stream.leave();
    });
  });
});
