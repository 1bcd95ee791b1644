import { rm } from 'node:fs/promises';
import type { DatabaseHandle } from '@licensestore/platform/db';
import {
  formatCheckpointNotification,
  PROJECTION_CHECKPOINT_CHANNEL,
} from '@licensestore/platform/readmodel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, signIn, startTestApi, type TestApi } from './support/api.js';
import { type ApiWithReadModel, startApiWithReadModel } from './support/api-with-read-model.js';
import { writeWebDist } from './support/web-dist.js';

const ADMIN = { username: 'admin', password: 'correct horse battery staple' };
const STRONG_ETAG = /^"[A-Za-z0-9_-]{43}"$/;
/** How long another instance may take to hear of a change: Postgres delivers the NOTIFY at once, bounded anyway. */
const NOTIFIED_WITHIN_MS = 10_000;

const productFields = {
  name: 'Cached Suite',
  description: 'Kept in memory between changes.',
  imageUrl: '/images/products/office.svg',
  category: 'Office',
  platform: 'Windows',
  regularPrice: '99.99',
  salePrice: null,
  featured: true,
  inStock: true,
};

/**
 * The catalogue's answers from memory: strong ETags, revalidation with 304, and every change visible at once on
 * the instance that made it and as soon as Postgres announces it on every other.
 */
describe('Catalogue answers: caching and revalidation', () => {
  let store: ApiWithReadModel;
  let database: DatabaseHandle;
  let webDist: string;
  let api: TestApi;
  let other: TestApi;
  let admin: string;
  let productId: string;

  const get = (instance: TestApi, path: string, headers: Record<string, string> = {}) =>
    fetch(`${instance.url}${path}`, { headers });
  const nameOf = async (instance: TestApi) =>
    ((await (await get(instance, `/api/products/${productId}`)).json()) as { name: string }).name;

  /** Waits (bounded) until `instance` answers `name` for the product. */
  const untilNamed = (instance: TestApi, name: string) =>
    expect.poll(() => nameOf(instance), { timeout: NOTIFIED_WITHIN_MS, interval: 50 }).toBe(name);

  /** What only a projector would do: change the row, and announce a checkpoint (or not). */
  const renameInReadModel = async (name: string, announce: boolean) => {
    await database.pool.query('UPDATE products SET name = $1 WHERE id = $2', [name, productId]);
    if (announce) {
      const { rows } = await database.pool.query<{ position: string }>(
        "SELECT position FROM projection_checkpoints WHERE name = 'products'",
      );
      await database.pool.query('SELECT pg_notify($1, $2)', [
        PROJECTION_CHECKPOINT_CHANNEL,
        formatCheckpointNotification('products', rows[0]?.position ?? ''),
      ]);
    }
  };

  beforeAll(async () => {
    webDist = await writeWebDist();
    const env = { ADMIN_PASSWORD: ADMIN.password, WEB_DIST: webDist };
    store = await startApiWithReadModel({ env });
    ({ api, database } = store);
    other = await startTestApi({ databaseUrl: store.databaseUrl, env });
    admin = await signIn(api.url, ADMIN.username, ADMIN.password);
    const created = await callApi(api.url, 'POST', '/api/products', { cookie: admin, body: productFields });
    expect(created.status).toBe(201);
    productId = ((await created.json()) as { id: string }).id;
  });
  afterAll(async () => {
    await other?.stop();
    await store?.stop();
    if (webDist) await rm(webDist, { recursive: true, force: true });
  });

  it('answers each catalogue read with a strong ETag and no-cache, and 304 without a body for that ETag', async () => {
    for (const path of ['/api/products', '/api/products/featured', `/api/products/${productId}`]) {
      const first = await get(api, path);
      expect(first.status).toBe(200);
      expect(first.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(first.headers.get('cache-control')).toBe('no-cache');
      const etag = first.headers.get('etag') as string;
      expect(etag).toMatch(STRONG_ETAG);
      const body = await first.text();
      const again = await get(api, path);
      expect(again.headers.get('etag')).toBe(etag);
      expect(await again.text()).toBe(body);

      // fetch sends Cache-Control: no-cache with a conditional request: it asks caches, not the origin, to revalidate.
      for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const revalidated = await get(api, path, { 'if-none-match': ifNoneMatch });
        expect(revalidated.status).toBe(304);
        expect(revalidated.headers.get('etag')).toBe(etag);
        expect((await revalidated.arrayBuffer()).byteLength).toBe(0);
      }
      const stale = await get(api, path, { 'if-none-match': '"other"' });
      expect(stale.status).toBe(200);
      expect(await stale.text()).toBe(body);
      const head = await fetch(`${api.url}${path}`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('etag')).toBe(etag);
      expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(body)));
      expect((await head.arrayBuffer()).byteLength).toBe(0);
    }
  });

  it('answers an unknown or malformed product id 404 every time (a miss is not kept)', async () => {
    for (const path of ['/api/products/00000000-0000-4000-8000-000000000000', '/api/products/not-a-uuid']) {
      for (let attempt = 0; attempt < 2; attempt++) {
        const response = await get(api, path);
        expect(response.status).toBe(404);
        expect(await response.json()).toEqual({ error: 'Product not found' });
      }
    }
  });

  it("changes the ETag at once on the instance that made a change, and the admin's next read shows it", async () => {
    const before = await get(api, '/api/products');
    const etag = before.headers.get('etag') as string;
    const byIdEtag = (await get(api, `/api/products/${productId}`)).headers.get('etag');

    const renamed = await callApi(api.url, 'PATCH', `/api/products/${productId}`, {
      cookie: admin,
      body: { name: 'Cached Suite 2' },
    });
    expect(renamed.status).toBe(200);

    const after = await get(api, '/api/products', { 'if-none-match': etag });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
    expect(((await after.json()) as Array<{ name: string }>).map((product) => product.name)).toContain(
      'Cached Suite 2',
    );
    const byId = await get(api, `/api/products/${productId}`);
    expect(byId.headers.get('etag')).not.toBe(byIdEtag);
    expect(await nameOf(api)).toBe('Cached Suite 2');
    const featured = await callApi(api.url, 'PATCH', `/api/products/${productId}`, {
      cookie: admin,
      body: { featured: false },
    });
    expect(featured.status).toBe(200);
    expect(await (await get(api, '/api/products/featured')).json()).toEqual([]);
  });

  it('shows a change made through one instance on another as soon as the checkpoint is announced', async () => {
    await nameOf(other); // held in the other instance's memory now
    const renamed = await callApi(api.url, 'PATCH', `/api/products/${productId}`, {
      cookie: admin,
      body: { name: 'Cached Suite 3' },
    });
    expect(renamed.status).toBe(200);
    await untilNamed(other, 'Cached Suite 3');
  });

  it('keeps answers in memory until the products checkpoint advances', async () => {
    const name = await nameOf(api);
    await renameInReadModel('Renamed behind its back', false);
    // Not announced: the answer in memory stands (a read of the table would differ).
    expect(await nameOf(api)).toBe(name);
    await renameInReadModel('Renamed and announced', true);
    await untilNamed(api, 'Renamed and announced');
  });

  it('serves nothing from memory it could have missed a change to while its LISTEN connection was down', async () => {
    await nameOf(api);
    // Every listener on this database loses its connection: any announcement could now go unheard.
    await database.pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND application_name = 'listen ${PROJECTION_CHECKPOINT_CHANNEL}'`,
    );
    await renameInReadModel('Changed while nobody listened', false);
    await untilNamed(api, 'Changed while nobody listened');
    // And it listens again: an announced change is seen as before.
    await renameInReadModel('Announced after the reconnect', true);
    await untilNamed(api, 'Announced after the reconnect');
  });

  it('answers the HTML shell from memory with a strong ETag, no-cache, and 304 on revalidation', async () => {
    const page = { accept: 'text/html,application/xhtml+xml' };
    const first = await get(api, '/', page);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(first.headers.get('cache-control')).toBe('no-cache');
    const etag = first.headers.get('etag') as string;
    expect(etag).toMatch(STRONG_ETAG);
    expect(await first.text()).toContain('<title>LicenseStore</title>');
    for (const path of ['/', '/products']) {
      const revalidated = await get(api, path, { ...page, 'if-none-match': etag });
      expect(revalidated.status).toBe(304);
      expect((await revalidated.arrayBuffer()).byteLength).toBe(0);
    }
  });
});
