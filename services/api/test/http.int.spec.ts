import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventStore } from '@licensestore/domain/events';
import { loadConfig } from '@licensestore/platform/config';
import { type DatabaseHandle, openDatabase } from '@licensestore/platform/db';
import { openEventStore } from '@licensestore/platform/eventstore';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testRedisUrl } from '../../../test/support/database.js';
import { createApp } from '../src/app.js';
import { migrateApi } from '../src/migrations/index.js';
import { recordingLogger } from './support/api.js';
import { THEME_SCRIPT_HASH, writeWebDist } from './support/web-dist.js';

/**
 * The HTTP shell around the routes: headers, errors, static files and the web client. The read model is left
 * unmigrated on purpose, so a catalogue read is a genuine server fault.
 */
describe('HTTP shell', () => {
  const logger = recordingLogger();
  let url: string;
  let close: () => Promise<void>;
  let webDist: string;
  let publicDir: string;

  beforeAll(async () => {
    webDist = await writeWebDist();
    publicDir = await mkdtemp(join(tmpdir(), 'public-'));
    await mkdir(join(publicDir, 'images', 'products'), { recursive: true });
    await writeFile(
      join(publicDir, 'images', 'products', 'office.svg'),
      '<svg xmlns="http://www.w3.org/2000/svg"/>',
    );
    await writeFile(join(publicDir, 'robots.txt'), 'User-agent: *');

    const databaseUrl = await createTestDatabase();
    const database: DatabaseHandle = openDatabase(databaseUrl);
    await migrateApi(database.db);
    const eventStore: EventStore = await openEventStore({ databaseUrl });
    const redis = new Redis(testRedisUrl(), { keyPrefix: `test-${randomUUID()}:` });
    const config = loadConfig({
      NODE_ENV: 'test',
      SESSION_SECRET: randomBytes(32).toString('hex'),
      LICENSE_KEY_SECRET: randomBytes(32).toString('hex'),
    });
    const app = createApp({ database, eventStore, redis, config, logger, webDist, publicDir });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = async () => {
      await new Promise((resolve) => server.close(resolve));
      await redis.quit();
      await eventStore.close();
      await database.close();
      await rm(webDist, { recursive: true, force: true });
      await rm(publicDir, { recursive: true, force: true });
    };
  });
  afterAll(async () => {
    await close?.();
  });

  it('answers the health check', async () => {
    const response = await fetch(`${url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  describe('security headers', () => {
    it('sends a page a CSP that allows PayPal and itself, and no X-Powered-By', async () => {
      const response = await fetch(`${url}/`, { headers: { accept: 'text/html' } });
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      const csp = response.headers.get('content-security-policy') ?? '';
      const directive = (name: string) => csp.split(';').find((part) => part.startsWith(`${name} `)) ?? '';
      for (const name of ['script-src', 'frame-src', 'connect-src', 'img-src']) {
        expect(directive(name).split(' ')).toEqual(
          expect.arrayContaining([
            "'self'",
            'https://www.paypal.com',
            'https://*.paypal.com',
            'https://*.paypalobjects.com',
          ]),
        );
      }
      expect(directive('script-src').split(' ')).toContain(THEME_SCRIPT_HASH);
      expect(directive('script-src')).not.toContain('unsafe-inline');
      expect(csp).not.toContain('upgrade-insecure-requests');
      expect(response.headers.get('x-powered-by')).toBeNull();
      expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin-allow-popups');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('same-origin');
    });

    it('gives every response a request id', async () => {
      const response = await fetch(`${url}/healthz`);
      expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    });
  });

  describe('errors', () => {
    it('answers an unknown API path with a JSON 404', async () => {
      for (const path of ['/api/nope', '/api']) {
        const response = await fetch(`${url}${path}`, { headers: { accept: 'text/html' } });
        expect(response.status).toBe(404);
        expect(await response.json()).toEqual({ error: 'Not found' });
      }
    });

    it('answers malformed JSON with 400', async () => {
      const response = await fetch(`${url}/api/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"username": "admin",',
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: 'Malformed JSON body' });
    });

    it('answers a body over 100 kB with 413', async () => {
      const response = await fetch(`${url}/api/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: 'x'.repeat(110 * 1024) }),
      });
      expect(response.status).toBe(413);
      expect(await response.json()).toEqual({ error: 'Request body too large: at most 100 kB' });
    });

    it('hides a server fault behind a generic 500 and logs it', async () => {
      const response = await fetch(`${url}/api/products`);
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ error: 'Internal server error' });
      expect(logger.entries).toContainEqual({
        level: 'error',
        message: 'request failed',
        fields: expect.objectContaining({
          err: expect.objectContaining({ message: expect.stringContaining('products') }),
        }),
      });
    });
  });

  describe('web client', () => {
    it('serves index.html for a page the browser asks for, uncached', async () => {
      for (const path of ['/', '/admin/products', '/product/123']) {
        const response = await fetch(`${url}${path}`, { headers: { accept: 'text/html,*/*' } });
        expect(response.status).toBe(200);
        expect(response.headers.get('cache-control')).toBe('no-cache');
        expect(await response.text()).toContain('<title>LicenseStore</title>');
      }
    });

    it('serves hashed assets as immutable', async () => {
      const response = await fetch(`${url}/assets/app-1234.js`);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    });

    it('answers a missing asset or a non-page request with 404, not the page', async () => {
      expect((await fetch(`${url}/assets/missing.js`)).status).toBe(404);
      const response = await fetch(`${url}/not-a-page.json`, { headers: { accept: 'application/json' } });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: 'Not found' });
    });
  });

  describe('public files', () => {
    it('serves product images with a long cache lifetime', async () => {
      const response = await fetch(`${url}/images/products/office.svg`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/svg+xml');
      expect(response.headers.get('cache-control')).toBe('public, max-age=2592000');
    });

    it('serves other public files with revalidation', async () => {
      const response = await fetch(`${url}/robots.txt`);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('public, max-age=0');
    });
  });
});
