import { randomBytes, randomUUID } from 'node:crypto';
import { maskedKey } from '@licensestore/domain/audit';
import type { EventStore } from '@licensestore/domain/events';
import { loadConfig } from '@licensestore/platform/config';
import type { DatabaseHandle } from '@licensestore/platform/db';
import type { Express } from 'express';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRedisUrl } from '../../../test/support/database.js';
import { freshLicenseKey } from '../../../test/support/license-keys.js';
import { createApp } from '../src/app.js';
import { callApi, recordingLogger, signIn, type TestApi } from './support/api.js';
import { type ApiWithReadModel, startApiWithReadModel } from './support/api-with-read-model.js';
import { deliverKeys, seedProduct } from './support/checkout.js';
import { purchase } from './support/purchase.js';
import { registeredRoutes } from './support/routes.js';

const ADMIN = { username: 'admin', password: 'correct horse battery staple' };
const AUDITOR = { username: 'Auditor-Ann', password: 'auditor password 1' };

/** Ids in paths: random, so a read answers 404 once past the guard and a write finds nothing to change. */
const SOME_ID = randomUUID();

interface RouteCase {
  method: string;
  /** As the app registers it (`:id` placeholders); the request fills them with SOME_ID. */
  route: string;
  body?: unknown;
  /** What an admin gets with this request: anything but 401 and 403 proves the guard let them through. */
  admin: number;
}

/** Back-office reads: admins and auditors alike. */
const BACK_OFFICE_READS: RouteCase[] = [
  { method: 'GET', route: '/api/admin/dashboard', admin: 200 },
  // What the product edit form starts from, with the revision its save names.
  { method: 'GET', route: '/api/admin/products/:id', admin: 404 },
  // The screens' live updates: which read models moved, never what they hold.
  { method: 'GET', route: '/api/admin/live', admin: 200 },
  { method: 'GET', route: '/api/orders', admin: 200 },
  { method: 'GET', route: '/api/orders/:id/timeline', admin: 404 },
  { method: 'GET', route: '/api/customers', admin: 200 },
  { method: 'GET', route: '/api/admin/orders', admin: 200 },
  { method: 'GET', route: '/api/admin/customers', admin: 200 },
  { method: 'GET', route: '/api/admin/customers/:email', admin: 404 },
  { method: 'GET', route: '/api/license-keys', admin: 200 },
  { method: 'GET', route: '/api/license-keys/stock', admin: 200 },
  { method: 'GET', route: '/api/admin/license-keys', admin: 200 },
  { method: 'GET', route: '/api/admin/stock-mismatches', admin: 200 },
  { method: 'GET', route: '/api/audit/events', admin: 200 },
  { method: 'GET', route: '/api/audit/parked-events', admin: 200 },
  { method: 'GET', route: '/api/audit/verifications', admin: 200 },
  { method: 'GET', route: '/api/admin/risk-rules', admin: 200 },
  { method: 'GET', route: '/api/admin/reviews', admin: 200 },
];

/** Who may sign in is the admins' business alone, even to read. */
const ADMIN_ONLY_READS: RouteCase[] = [
  { method: 'GET', route: '/api/admin/users', admin: 200 },
  { method: 'GET', route: '/api/admin/team', admin: 200 },
  // What a refund may take back: the dialog of the one role that can refund.
  { method: 'GET', route: '/api/orders/:id/refundable-units', admin: 404 },
];

/** Every write of the back office; the bodies are incomplete, so an admin's request changes nothing either. */
const ADMIN_WRITES: RouteCase[] = [
  { method: 'POST', route: '/api/products', body: {}, admin: 400 },
  { method: 'PATCH', route: '/api/products/:id', body: { name: '' }, admin: 400 },
  { method: 'DELETE', route: '/api/products/:id', admin: 404 },
  { method: 'PATCH', route: '/api/orders/:id/status', body: { status: 'shipped' }, admin: 400 },
  { method: 'POST', route: '/api/orders/:id/delivery-email', admin: 404 },
  { method: 'POST', route: '/api/orders/:id/refunds', body: { all: true, reason: 'Refused' }, admin: 404 },
  { method: 'POST', route: '/api/orders/:id/refunds/:refundId/retry', admin: 404 },
  { method: 'POST', route: '/api/license-keys', body: {}, admin: 400 },
  { method: 'DELETE', route: '/api/license-keys/:id', admin: 404 },
  { method: 'POST', route: '/api/license-keys/:keyId/reveal', admin: 404 },
  { method: 'POST', route: '/api/license-keys/import', body: {}, admin: 400 },
  { method: 'POST', route: '/api/objects/upload', admin: 200 },
  { method: 'POST', route: '/api/objects/normalize', body: {}, admin: 400 },
  { method: 'POST', route: '/api/admin/users', body: {}, admin: 400 },
  { method: 'DELETE', route: '/api/admin/users/:id', admin: 404 },
  { method: 'PUT', route: '/api/admin/risk-rules', body: { holdAtOrAbove: 'lots' }, admin: 400 },
  { method: 'POST', route: '/api/admin/risk-rules/what-if', body: {}, admin: 400 },
  { method: 'POST', route: '/api/admin/reviews/:orderId/approve', admin: 404 },
  { method: 'POST', route: '/api/admin/reviews/:orderId/reject', body: { reason: 'Refused' }, admin: 404 },
];

/**
 * Non-GET routes auditors may call too, because they change none of the store's data (e.g. starting a check of the
 * read models). `admin` is what both roles get.
 */
const AUDITOR_ACTIONS: RouteCase[] = [{ method: 'POST', route: '/api/audit/verifications', admin: 202 }];

/** Routes that are not the back office's, each with why anyone may call it. */
const NOT_BACK_OFFICE: Record<string, string> = {
  'POST /paypal/order': 'checkout: a shopper starts a PayPal order',
  'POST /paypal/order/:orderID/capture': 'checkout: a shopper captures it',
  'POST /paypal/webhook': "PayPal's webhook, checked by its signature",
  'PUT /api/objects/uploads/:id':
    'the upload URL an admin was handed is signed: the signature is the permission',
  'POST /api/admin/login': 'signing in',
  'POST /api/admin/logout': 'signing out',
  'GET /api/admin/status': 'who is signed in',
  'GET /api/auth/user': 'the signed-in customer',
  'GET /api/login': "the customer's sign-in page",
  'POST /api/login': 'a customer asks for a sign-in link',
  'GET /api/login/callback': 'the sign-in link',
  'POST /api/login/callback': "the sign-in link's button, when it was opened from another site",
  'GET /api/logout': 'customer sign-out',
  'POST /api/logout': "customer sign-out by the page's button, when a link elsewhere led there",
  'GET /api/products': 'the storefront',
  'GET /api/products/featured': 'the storefront',
  'GET /api/products/:id': 'the storefront',
  'GET /api/testimonials': 'the storefront',
  'GET /api/orders/:orderId':
    'the confirmation page: the order id names the order (the address masked without access to it)',
  'GET /api/orders/:orderId/items':
    'the confirmation page: keys only with access to the order (an auditor gets them masked)',
  'GET /api/orders/:orderId/events': 'the confirmation page, live, keys as on its items',
  'POST /api/orders/:id/access': "the delivery e-mail's link: its signed token is the permission",
  'GET /api/my-orders': "the signed-in customer's own orders",
  'POST /api/my-orders/:orderId/delivery-email': "the signed-in customer's own order, its e-mail sent again",
  'GET /api/orders/:id/receipt.pdf':
    "the receipt: to whoever may read the order's keys, or holds the receipt link from the delivery e-mail",
  'GET /api/payments/config': 'the checkout page',
  'GET /healthz': 'health checks',
  'GET /readyz': 'readiness for load balancers: up or not, and which dependency is down',
  'GET /metrics': 'Prometheus: METRICS_TOKEN as a bearer token, or loopback callers only',
  'GET /objects/uploads/:id': 'product images',
};

const signature = ({ method, route }: { method: string; route: string }) => `${method} ${route}`;

describe('Back-office roles', () => {
  let databaseUrl: string;
  let database: DatabaseHandle;
  let eventStore: EventStore;
  let store: ApiWithReadModel | undefined;
  let api: TestApi;
  let admin: string;
  let auditor: string;

  const call = (method: string, path: string, options: { cookie?: string; body?: unknown } = {}) =>
    callApi(api.url, method, path, options);
  const send = (route: RouteCase, cookie?: string) =>
    call(route.method, route.route.replace(/:\w+/g, SOME_ID), { cookie, body: route.body });
  const answer = async (response: Response) => ({ status: response.status, body: await response.text() });

  beforeAll(async () => {
    store = await startApiWithReadModel({
      env: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password },
    });
    ({ api, databaseUrl, database, eventStore } = store);
    admin = await signIn(api.url, ADMIN.username, ADMIN.password);
    const created = await call('POST', '/api/admin/users', {
      cookie: admin,
      body: { ...AUDITOR, role: 'auditor' },
    });
    expect(await answer(created)).toMatchObject({ status: 201 });
    auditor = await signIn(api.url, AUDITOR.username, AUDITOR.password);
  });
  afterAll(async () => {
    await store?.stop();
  });

  describe('an auditor', () => {
    it('signs in to a session of their role, which the status reports without making them an admin', async () => {
      const response = await call('GET', '/api/admin/status', { cookie: auditor });
      expect(await response.json()).toEqual({ isAdmin: false, role: 'auditor', username: AUDITOR.username });
    });

    it.each(BACK_OFFICE_READS)('may $method $route', async (route) => {
      expect((await send(route, auditor)).status).toBe(route.admin);
    });

    it.each(ADMIN_ONLY_READS)('may not $method $route (403)', async (route) => {
      expect(await answer(await send(route, auditor))).toEqual({
        status: 403,
        body: JSON.stringify({ error: 'Admin access required' }),
      });
    });

    it('may call every route of AUDITOR_ACTIONS, which visitors may not', async () => {
      for (const route of AUDITOR_ACTIONS) {
        expect((await send(route, auditor)).status, signature(route)).toBe(route.admin);
        expect((await send(route, undefined)).status, signature(route)).toBe(401);
      }
    });

    it.each(ADMIN_WRITES)('may not $method $route (403)', async (route) => {
      expect(await answer(await send(route, auditor))).toEqual({
        status: 403,
        body: JSON.stringify({ error: 'Admin access required' }),
      });
    });
  });

  describe('an admin', () => {
    it('is reported as an admin', async () => {
      const response = await call('GET', '/api/admin/status', { cookie: admin });
      expect(await response.json()).toEqual({ isAdmin: true, role: 'admin', username: ADMIN.username });
    });

    it.each([...BACK_OFFICE_READS, ...ADMIN_ONLY_READS, ...ADMIN_WRITES])(
      'may $method $route ($admin)',
      async (route) => {
        expect((await send(route, admin)).status).toBe(route.admin);
      },
    );
  });

  describe('a visitor without a session', () => {
    it('is reported as nobody', async () => {
      const response = await call('GET', '/api/admin/status');
      expect(await response.json()).toEqual({ isAdmin: false, role: null, username: null });
    });

    it.each([...BACK_OFFICE_READS, ...ADMIN_ONLY_READS, ...ADMIN_WRITES])(
      'is asked to sign in for $method $route (401)',
      async (route) => {
        expect((await send(route, undefined)).status).toBe(401);
      },
    );
  });

  describe('a signed-in customer', () => {
    it.each([...BACK_OFFICE_READS, ...ADMIN_WRITES])('is refused $method $route (403)', async (route) => {
      const customer = await api.sessionCookie({ kind: 'customer', subjectId: 'ada@example.com' });
      expect((await send(route, customer)).status).toBe(403);
    });
  });

  describe('license keys', () => {
    let productId: string;
    let key: string;

    beforeAll(async () => {
      productId = await seedProduct(eventStore, database);
      key = freshLicenseKey();
      const added = await call('POST', '/api/license-keys', { cookie: admin, body: { productId, key } });
      expect(added.status).toBe(201);
    });

    it("are masked in the back office's list for admins and auditors alike", async () => {
      for (const cookie of [admin, auditor]) {
        const listed = await call('GET', `/api/admin/license-keys?product=${productId}`, { cookie });
        expect(((await listed.json()) as { items: Array<{ key: string }> }).items).toEqual([
          expect.objectContaining({ key: maskedKey(key) }),
        ]);
      }
    });

    it('are masked in the inventory for an auditor and in clear for an admin', async () => {
      const keysSeenBy = async (cookie: string) => {
        const keys = (await (await call('GET', '/api/license-keys', { cookie })).json()) as Array<{
          productId: string;
          key: string;
        }>;
        return keys.filter((row) => row.productId === productId).map((row) => row.key);
      };
      expect(await keysSeenBy(admin)).toEqual([key]);
      expect(await keysSeenBy(auditor)).toEqual([maskedKey(key)]);
    });

    it("are masked in an order's items for the back office, in clear for the paying browser", async () => {
      const { orderId, orderCookie } = await purchase(api.url, productId);
      await deliverKeys(eventStore, database, orderId);
      const keysSeenBy = async (cookie?: string) => {
        const items = (await (
          await call('GET', `/api/orders/${orderId}/items`, { cookie })
        ).json()) as Array<{
          licenseKey?: string | null;
          licenseKeys?: string[];
        }>;
        return items.map(({ licenseKey, licenseKeys }) => ({ licenseKey, licenseKeys }));
      };
      // An admin opens a key on purpose, through its recorded reveal.
      expect(await keysSeenBy(admin)).toEqual([
        { licenseKey: maskedKey(key), licenseKeys: [maskedKey(key)] },
      ]);
      expect(await keysSeenBy(orderCookie)).toEqual([{ licenseKey: key, licenseKeys: [key] }]);
      expect(await keysSeenBy()).toEqual([{ licenseKey: undefined, licenseKeys: undefined }]);
      expect(await keysSeenBy(auditor)).toEqual([
        { licenseKey: maskedKey(key), licenseKeys: [maskedKey(key)] },
      ]);
    });
  });

  describe('the route table', () => {
    let app: Express;
    let redis: Redis;

    beforeAll(() => {
      redis = new Redis(testRedisUrl(), { lazyConnect: true });
      const config = loadConfig({
        NODE_ENV: 'test',
        DATABASE_URL: databaseUrl,
        SESSION_SECRET: randomBytes(32).toString('hex'),
        LICENSE_KEY_SECRET: randomBytes(32).toString('base64url'),
      });
      app = createApp({ config, database, eventStore, redis, logger: recordingLogger() });
    });
    afterAll(() => redis?.disconnect());

    it('has every write route in a table, so a new one cannot be left unguarded by oversight', () => {
      const classified = [...ADMIN_WRITES, ...AUDITOR_ACTIONS]
        .map(signature)
        .concat(Object.keys(NOT_BACK_OFFICE));
      const unclassified = registeredRoutes(app.router).filter(
        (route) => !route.startsWith('GET ') && !classified.includes(route),
      );
      expect(unclassified, 'add each to ADMIN_WRITES, AUDITOR_ACTIONS or NOT_BACK_OFFICE').toEqual([]);
    });

    it('lists only routes the app has', () => {
      const registered = registeredRoutes(app.router);
      const listed = [
        ...[...BACK_OFFICE_READS, ...ADMIN_ONLY_READS, ...ADMIN_WRITES, ...AUDITOR_ACTIONS].map(signature),
        ...Object.keys(NOT_BACK_OFFICE),
      ];
      expect(listed.filter((route) => !registered.includes(route))).toEqual([]);
    });

    it('opens every other GET route to auditors and admins, and to nobody else', async () => {
      const listed = [...BACK_OFFICE_READS, ...ADMIN_ONLY_READS].map(signature);
      const others = registeredRoutes(app.router).filter(
        (route) => route.startsWith('GET ') && !listed.includes(route) && !(route in NOT_BACK_OFFICE),
      );
      const refusals: string[] = [];
      for (const route of others) {
        const path = route.slice('GET '.length).replace(/:\w+/g, SOME_ID);
        const statuses = {
          auditor: (await call('GET', path, { cookie: auditor })).status,
          admin: (await call('GET', path, { cookie: admin })).status,
          visitor: (await call('GET', path)).status,
        };
        const guarded = statuses.visitor === 401 && ![401, 403].includes(statuses.auditor);
        if (!guarded || [401, 403].includes(statuses.admin))
          refusals.push(`${route}: ${JSON.stringify(statuses)}`);
      }
      expect(refusals, 'a public GET route belongs in NOT_BACK_OFFICE').toEqual([]);
    });
  });
});
