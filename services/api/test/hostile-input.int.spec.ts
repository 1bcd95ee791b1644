import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  parseCheckoutEvent,
  parseLicenseKeyEvent,
  parseOrderEvent,
  parseProductEvent,
} from '@licensestore/domain';
import { type EventStore, isUnreadable, type RecordedEvent } from '@licensestore/domain/events';
import { createPaypalSandbox } from '@licensestore/paypal-sandbox';
import { loadConfig } from '@licensestore/platform/config';
import type { DatabaseHandle } from '@licensestore/platform/db';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../projections/src/index.js';
import { testRedisUrl } from '../../../test/support/database.js';
import { emulatorAccessToken } from '../../paypal-sandbox/test/support/sandbox.js';
import { createApp } from '../src/app.js';
import { teamKeyset } from '../src/auth/back-office-users.js';
import { CUSTOMER_KEYSET } from '../src/customers/queries.js';
import type { Keyset, KeyType } from '../src/http/paging.js';
import { keyListKeyset } from '../src/license-keys/key-list.js';
import { ORDER_KEYSET } from '../src/orders/queries.js';
import { callApi, recordingLogger, signIn, type TestApi } from './support/api.js';
import { type ApiWithReadModel, startApiWithReadModel } from './support/api-with-read-model.js';
import { seedProduct } from './support/checkout.js';
import { purchase } from './support/purchase.js';
import { rawRequest } from './support/raw-http.js';
import { isWriteRoute, registeredRoutes } from './support/routes.js';

const ADMIN = { username: 'admin', password: 'correct horse battery staple' };
const AUDITOR = { username: 'fuzz-auditor', password: 'auditor password 1' };

/** Enough to find a crash in each route's parsing and validation while the file stays well under a minute. */
const RUNS = 100;
const RUNS_AS_OTHERS = 20;

type Caller = 'admin' | 'auditor' | 'customer' | 'visitor' | 'paypal';

interface FuzzTarget {
  /** The first caller gets RUNS requests, the others RUNS_AS_OTHERS. */
  as: Caller[];
  /**
   * Real ids a path parameter also takes, so bodies reach validation behind the id's lookup. Left out of
   * DELETE routes, whose only input is the id: fuzzing them with a real one would just delete it.
   */
  ids?: () => string[];
  /** The customer sign-in form answers with an HTML page, as a browser posting it needs. */
  answersHtml?: boolean;
}

/** Field names the routes read, so generated bodies get past "must be an object" to each field's own checks. */
const FIELD_NAMES = [
  'name',
  'description',
  'imageUrl',
  'imageURL',
  'category',
  'platform',
  'regularPrice',
  'salePrice',
  'downloadUrl',
  'installationNotes',
  'featured',
  'inStock',
  'status',
  'productId',
  'key',
  'keys',
  'text',
  'username',
  'password',
  'role',
  'email',
  'items',
  'quantity',
  'amount',
  'currency',
  'intent',
  'customerName',
  'customerEmail',
  'choice',
  'event_type',
  'payment_source',
  'purchase_units',
  'grant_type',
];
const HOSTILE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'];
const QUERY_NAMES = ['productId', 'expires', 'signature', 'wait', 'status', 'page', 'cursor', 'at'];

describe('Hostile input to every write route, every path parameter and every paged list', () => {
  let dataDir: string;
  let databaseUrl: string;
  let database: DatabaseHandle;
  let eventStore: EventStore;
  let store: ApiWithReadModel | undefined;
  let api: TestApi;
  let productId: string;
  let orderId: string;
  let paypalOrderId: string;
  const headersOf: Record<Caller, Record<string, string>> = {
    admin: {},
    auditor: {},
    customer: {},
    visitor: {},
    paypal: {},
  };

  const orderIds = () => [orderId];
  const paypalOrderIds = () => [paypalOrderId];
  const TARGETS: Record<string, FuzzTarget> = {
    'POST /api/products': { as: ['admin', 'auditor', 'visitor'] },
    'PATCH /api/products/:id': { as: ['admin', 'customer'], ids: () => [productId] },
    'DELETE /api/products/:id': { as: ['admin', 'visitor'] },
    'PATCH /api/orders/:id/status': { as: ['admin', 'auditor'], ids: orderIds },
    'POST /api/orders/:id/delivery-email': { as: ['admin', 'customer'], ids: orderIds },
    'POST /api/orders/:id/access': { as: ['visitor', 'customer'], ids: orderIds },
    'POST /api/orders/:id/refunds': { as: ['admin', 'auditor'], ids: orderIds },
    'POST /api/orders/:id/refunds/:refundId/retry': { as: ['admin', 'auditor'], ids: orderIds },
    'POST /api/my-orders/:orderId/delivery-email': { as: ['customer', 'visitor'], ids: orderIds },
    'PUT /api/admin/risk-rules': { as: ['admin', 'auditor'] },
    'POST /api/admin/risk-rules/what-if': { as: ['admin', 'auditor'] },
    'POST /api/admin/reviews/:orderId/approve': { as: ['admin', 'auditor'], ids: orderIds },
    'POST /api/admin/reviews/:orderId/reject': { as: ['admin', 'auditor'], ids: orderIds },
    'POST /api/license-keys': { as: ['admin', 'auditor'] },
    'DELETE /api/license-keys/:id': { as: ['admin', 'visitor'] },
    'POST /api/license-keys/:keyId/reveal': { as: ['admin', 'auditor'] },
    'POST /api/license-keys/import': { as: ['admin', 'customer'] },
    'POST /api/objects/upload': { as: ['admin', 'visitor'] },
    'POST /api/objects/normalize': { as: ['admin', 'auditor'] },
    'PUT /api/objects/uploads/:id': { as: ['visitor', 'admin'] },
    'POST /api/admin/users': { as: ['admin', 'auditor'] },
    'DELETE /api/admin/users/:id': { as: ['admin', 'customer'] },
    // Signed out only: a logout fuzzed with a session would end the session the other routes use.
    'POST /api/admin/logout': { as: ['visitor'] },
    'POST /api/admin/login': { as: ['visitor', 'customer'] },
    'POST /api/login': { as: ['visitor', 'customer'], answersHtml: true },
    'POST /api/login/callback': { as: ['visitor', 'customer'], answersHtml: true },
    // Signed out only, like the admin's: a customer's logout would end the session the other routes use.
    'POST /api/logout': { as: ['visitor'] },
    'POST /api/audit/verifications': { as: ['auditor', 'visitor'] },
    'POST /paypal/order': { as: ['visitor', 'customer'] },
    'POST /paypal/order/:orderID/capture': { as: ['visitor'], ids: paypalOrderIds },
    'POST /paypal/webhook': { as: ['visitor'] },
    // The PayPal emulator, mounted on the store's own origin while payments are simulated.
    'POST /paypal-sandbox/v1/oauth2/token': { as: ['visitor', 'paypal'] },
    'POST /paypal-sandbox/v2/*path': { as: ['paypal', 'visitor'] },
    'POST /paypal-sandbox/v2/checkout/orders': { as: ['paypal', 'visitor'] },
    'POST /paypal-sandbox/v2/checkout/orders/:id/confirm-payment-source': {
      as: ['paypal'],
      ids: paypalOrderIds,
    },
    'POST /paypal-sandbox/v2/checkout/orders/:id/capture': { as: ['paypal'], ids: paypalOrderIds },
    'POST /paypal-sandbox/v2/payments/captures/:id/refund': { as: ['paypal'] },
    'POST /paypal-sandbox/v1/notifications/verify-webhook-signature': { as: ['paypal', 'visitor'] },
    'POST /paypal-sandbox/v1/notifications/webhooks-events/:id/resend': { as: ['paypal'] },
    'POST /paypal-sandbox/buyer/orders/:id/approve': { as: ['visitor'], ids: paypalOrderIds },
    'POST /paypal-sandbox/buyer/orders/:id/confirm-payment-source': { as: ['visitor'], ids: paypalOrderIds },
    'POST /paypal-sandbox/simulate/captures/:id/complete': { as: ['paypal', 'visitor'] },
    'POST /paypal-sandbox/simulate/captures/:id/deny': { as: ['paypal', 'visitor'] },
    'POST /paypal-sandbox/simulate/orders/:id/complete': { as: ['paypal', 'visitor'], ids: paypalOrderIds },
    'POST /paypal-sandbox/simulate/orders/:id/deny': { as: ['paypal', 'visitor'], ids: paypalOrderIds },
    'POST /paypal-sandbox/simulate/orders/:id/resend-webhook': {
      as: ['paypal', 'visitor'],
      ids: paypalOrderIds,
    },
    'POST /paypal-sandbox/simulate/orders/:id/webhook': { as: ['paypal', 'visitor'], ids: paypalOrderIds },
    'POST /paypal-sandbox/simulate/captures/:id/refund': { as: ['paypal', 'visitor'] },
    'POST /paypal-sandbox/simulate/orders/:id/refund': { as: ['paypal', 'visitor'], ids: paypalOrderIds },
    'POST /paypal-sandbox/simulate/captures/:id/refund-failure': { as: ['paypal', 'visitor'] },
    'POST /paypal-sandbox/simulate/orders/:id/refund-failure': {
      as: ['paypal', 'visitor'],
      ids: paypalOrderIds,
    },
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'hostile-input-'));
    store = await startApiWithReadModel({
      env: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, DATA_DIR: dataDir },
    });
    ({ api, databaseUrl, database, eventStore } = store);
    headersOf.admin = { cookie: await signIn(api.url, ADMIN.username, ADMIN.password) };
    const created = await callApi(api.url, 'POST', '/api/admin/users', {
      cookie: headersOf.admin.cookie,
      body: { ...AUDITOR, role: 'auditor' },
    });
    expect(created.status).toBe(201);
    headersOf.auditor = { cookie: await signIn(api.url, AUDITOR.username, AUDITOR.password) };
    headersOf.customer = {
      cookie: await api.sessionCookie({ kind: 'customer', subjectId: 'ada@example.com' }),
    };
    headersOf.paypal = { authorization: `Bearer ${await emulatorAccessToken(`${api.url}/paypal-sandbox`)}` };
    productId = await seedProduct(eventStore, database);
    ({ orderId, paypalOrderId } = await purchase(api.url, productId));
  });
  afterAll(async () => {
    await store?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  /** Every route the app registers (`POST /api/products/:id`), the PayPal emulator's mount included. */
  const appRoutes = async (): Promise<string[]> => {
    const redis = new Redis(testRedisUrl(), { lazyConnect: true });
    const config = loadConfig({
      NODE_ENV: 'test',
      DATABASE_URL: databaseUrl,
      SESSION_SECRET: randomBytes(32).toString('hex'),
      LICENSE_KEY_SECRET: randomBytes(32).toString('base64url'),
      DATA_DIR: dataDir,
    });
    const sandbox = createPaypalSandbox({ logger: silentLogger });
    try {
      const app = createApp({
        config,
        database,
        eventStore,
        redis,
        logger: recordingLogger(),
        payments: { sandbox },
      });
      return registeredRoutes(app.router);
    } finally {
      await sandbox.close();
      redis.disconnect();
    }
  };

  describe('the route table', () => {
    it('fuzzes every write route the app registers, the PayPal emulator mount included', async () => {
      const writes = (await appRoutes()).filter(isWriteRoute);
      expect(
        writes.filter((route) => !(route in TARGETS)),
        'add each to TARGETS',
      ).toEqual([]);
      expect(Object.keys(TARGETS).filter((route) => !writes.includes(route))).toEqual([]);
    });
  });

  describe.each(Object.keys(TARGETS))('%s', (route) => {
    const target = TARGETS[route] as FuzzTarget;
    const [method, pattern] = route.split(' ') as [string, string];

    it.each(target.as.map((caller, index) => ({ caller, runs: index === 0 ? RUNS : RUNS_AS_OTHERS })))(
      'answers any input from $caller with a described 4xx or a success, never a 5xx',
      async ({ caller, runs }) => {
        const withBody = method !== 'DELETE';
        const requests = hostileRequest(
          pattern,
          [productId, orderId, paypalOrderId],
          withBody ? (target.ids?.() ?? []) : [],
          withBody,
        );
        await fc.assert(
          fc.asyncProperty(requests, async ({ path, body }) => {
            const response = await fetch(`${api.url}${path}`, {
              method,
              headers: { ...headersOf[caller], ...(body ? { 'content-type': body.contentType } : {}) },
              body: body?.text,
            });
            const text = await response.text();
            const answer = `${method} ${path} → ${response.status} ${text.slice(0, 300)}`;
            expect(response.status, answer).toBeLessThan(500);
            if (response.status >= 400) {
              const type = response.headers.get('content-type') ?? '';
              expect(describedError(type, text, target.answersHtml ?? false), answer).toBe(true);
            }
          }),
          { numRuns: runs },
        );
      },
    );
  });

  describe('odd path parameters, on every route that has one (reads included)', () => {
    it('answers each with a described 4xx or a success, never a 5xx', async () => {
      const routes = [...new Set(await appRoutes())].filter((route) => PATH_SLOT.test(route));
      expect(routes.length).toBeGreaterThan(20);
      const failures: string[] = [];
      for (const route of routes) {
        const [method, pattern] = route.split(' ') as [string, string];
        for (const value of ODD_PATH_PARAMETERS) {
          // Sent as written: fetch would resolve the dot segments first.
          const path = pattern.replace(new RegExp(PATH_SLOT, 'g'), value);
          const withBody = ['POST', 'PUT', 'PATCH'].includes(method);
          const answer = await rawRequest(api.url, path, {
            method,
            headers: {
              ...headersOf.admin,
              connection: 'close',
              ...(withBody ? { 'content-type': 'application/json', 'content-length': '2' } : {}),
            },
            body: withBody ? '{}' : undefined,
          });
          const type = String(answer.headers['content-type'] ?? '');
          if (answer.status >= 500 || (answer.status >= 400 && !describedError(type, answer.body, false)))
            failures.push(`${method} ${path.slice(0, 100)} → ${answer.status} ${answer.body.slice(0, 200)}`);
        }
      }
      expect(failures).toEqual([]);
    }, 120_000);
  });

  describe('crafted paging cursors, on every paged list', () => {
    it.each(PAGED_LISTS)('%s answers each with its page or a 400 naming the cursor', async (path, keyset) => {
      const failures: string[] = [];
      const sorts = Object.entries(keyset.sorts) as Array<[string, { type: KeyType }]>;
      for (const [sort, key] of sorts) {
        for (const dir of ['asc', 'desc']) {
          for (const cursor of craftedCursors(sort, dir, key.type, keyset.id.type)) {
            const response = await fetch(`${api.url}${path}?sort=${sort}&dir=${dir}&cursor=${cursor}`, {
              headers: headersOf.admin,
            });
            const text = await response.text();
            const refusedWell = response.status === 400 && /^{"error":"cursor: /.test(text);
            if (response.status !== 200 && !refusedWell)
              failures.push(
                `${sort} ${dir} ${decodedCursor(cursor)} → ${response.status} ${text.slice(0, 200)}`,
              );
          }
        }
      }
      expect(failures).toEqual([]);
    });
  });

  describe('afterwards, the store', () => {
    it('still serves the catalogue', async () => {
      const response = await fetch(`${api.url}/api/products`);
      expect(response.status).toBe(200);
      expect(Array.isArray(await response.json())).toBe(true);
    });

    it('has a log whose every event reads back through its parser', async () => {
      // The fuzz appends a few hundred events at most: one page holds the whole log.
      const log = await eventStore.readAll(null, 100_000);
      expect(log.length).toBeLessThan(100_000);
      const unreadable: string[] = [];
      for (const event of log) {
        const problem = isUnreadable(event) ? event.reason : unreadableEvent(event);
        if (problem) unreadable.push(`${event.type} at ${event.position}: ${problem}`);
      }
      expect(unreadable).toEqual([]);
    });
  });
});

/**
 * A 4xx the caller can act on: JSON with a message (`error`, or PayPal's `message`), or one of the sign-in pages,
 * whose heading says what went wrong.
 */
function describedError(type: string, text: string, answersHtml: boolean): boolean {
  if (answersHtml && type.startsWith('text/html')) return /<h1>[^<]+<\/h1>/.test(text);
  if (!type.startsWith('application/json')) return false;
  const body = JSON.parse(text) as { error?: unknown; message?: unknown };
  const message = typeof body.error === 'string' ? body.error : body.message;
  return typeof message === 'string' && message.trim().length > 0;
}

const eventParsers = [parseProductEvent, parseCheckoutEvent, parseOrderEvent, parseLicenseKeyEvent];

/** Why a stored event does not read back as one of the store's events, or null when it does. */
function unreadableEvent(event: RecordedEvent): string | null {
  for (const parse of eventParsers) {
    try {
      if (parse(event.type, event.data)) return null;
    } catch (error) {
      return (error as Error).message;
    }
  }
  return 'no parser knows this type';
}

// --- Tables of crafted values -----------------------------------------------------------------------------

/** A path parameter or wildcard in a route's pattern. */
const PATH_SLOT = /[:*]\w+/;

/**
 * Path parameters no route can use, percent-encoded as a client sends them: NUL and other controls, C1 and bidi
 * controls, a line separator, a byte order mark, bytes that are not UTF-8 (a lone surrogate among them), dot
 * segments, an encoded slash, a very long one and near-misses of an id.
 */
const ODD_PATH_PARAMETERS = [
  '%00',
  'a%00b',
  '%0A',
  '%1B%5B2J',
  '%7F',
  '%C2%85',
  '%E2%80%AE',
  '%E2%80%A8',
  '%EF%BB%BF',
  '%FF',
  '%C0%AF',
  '%ED%A0%80',
  '%E0%A4%A',
  '%F0%9F%92%A9',
  '%20',
  '..',
  '%2e%2e',
  '%2F',
  'x'.repeat(4000),
  '00000000-0000-0000-0000-00000000000g',
  '00000000-0000-0000-0000-000000000000%00',
];

/** The back office's paged lists and how each pages (its sorts and their column types). */
const PAGED_LISTS: Array<[string, Keyset<never, string>]> = [
  ['/api/admin/orders', ORDER_KEYSET],
  ['/api/admin/customers', CUSTOMER_KEYSET],
  ['/api/admin/license-keys', keyListKeyset],
  ['/api/admin/team', teamKeyset],
];

/** Cursor values of each column type that have reached Postgres, or read another value there, or are near misses. */
const CRAFTED_KEYS: Record<KeyType, unknown[]> = {
  timestamp: [
    '2026-02-30T00:00:00Z',
    '0000-01-01T00:00:00Z',
    '2025-02-29T12:00:00Z',
    '2026-04-31T00:00:00Z',
    '2026-01-01T24:00:00Z',
    '2026-01-01T23:59:60Z',
    '2026-01-01T00:00:00.123456Z',
    '0001-01-01T00:00:00.000Z',
    '9999-12-31T23:59:59.999Z',
    '+275760-09-13T00:00:00.000Z',
    '2026-01-01',
    '',
    0,
  ],
  text: ['\u0000', 'a\u0000b', '\ud800', '\u202e', '\u2028', 'x'.repeat(1000), 'x'.repeat(1001), '', 7],
  integer: [2 ** 53, -(2 ** 53), 1.5, null, '1'],
  decimal: ['1e309', '99999999999999999.9', '-0.0000001', 'NaN', '9999999999999999.999999', '-0', '', 1],
  uuid: ['00000000-0000-0000-0000-00000000000g', '\u0000', '', randomUUID().toUpperCase()],
};
const PLAUSIBLE_KEYS: Record<KeyType, unknown> = {
  timestamp: '2024-02-29T23:59:59.999Z',
  text: 'ada@example.com',
  integer: 1,
  decimal: '19.99',
  uuid: '00000000-0000-4000-8000-000000000000',
};

const encodedCursor = (fields: Record<string, unknown>) =>
  encodeURIComponent(Buffer.from(JSON.stringify(fields)).toString('base64url'));
const decodedCursor = (cursor: string) =>
  Buffer.from(decodeURIComponent(cursor), 'base64url').toString('utf8').slice(0, 120);

/** Cursors of the sort and direction asked for whose values are crafted (the sort's, then the id's), and garbage. */
function craftedCursors(sort: string, dir: string, type: KeyType, idType: KeyType): string[] {
  const cursor = (k: unknown, i: unknown) =>
    [false, true].map((b) => encodedCursor({ s: sort, d: dir, k, i, b, n: b }));
  return [
    ...CRAFTED_KEYS[type].flatMap((k) => cursor(k, PLAUSIBLE_KEYS[idType])),
    ...CRAFTED_KEYS[idType].flatMap((i) => cursor(PLAUSIBLE_KEYS[type], i)),
    encodedCursor({ s: sort, d: dir }),
    encodedCursor({ s: sort, d: dir, k: {}, i: [], b: 'yes', n: null }),
    '%00',
    'not-base64-%F0%9F%92%A9',
    'a'.repeat(2001),
  ];
}

// --- Generators -------------------------------------------------------------------------------------------

/** Strings that have broken parsers, file paths and databases before. */
const nastyString = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '../../etc/passwd',
    '..\\..\\windows\\win.ini',
    '%2e%2e%2f',
    "'; DROP TABLE events; --",
    '<script>alert(1)</script>',
    '{{7*7}}',
    '\u202e\ufeff\ud800',
    'NaN',
    '-1',
    '1e309',
    '0x10',
    '00000000-0000-0000-0000-000000000000',
    'a'.repeat(1000),
    ...HOSTILE_KEYS,
  ),
);

/** Values that pass a field's first checks (the store's real ids among them), so the next check gets its turn. */
const plausible = (ids: string[]) => {
  const id = fc.oneof(fc.uuid(), ...(ids.length > 0 ? [fc.constantFrom(...ids)] : []));
  return fc.oneof(
    id,
    fc.constantFrom('19.99', '0.00', '-1.00', 'ada@example.com', 'admin', 'auditor', 'completed', 'refunded'),
    fc.constantFrom('approve', 'USD', 'CAPTURE', 'PAYMENT.CAPTURE.COMPLETED', 'client_credentials'),
    fc.array(fc.record({ productId: id, quantity: fc.integer({ min: -2, max: 1000 }) }), { maxLength: 3 }),
  );
};

/** A body value of any JSON shape, deep, long or of the wrong type. */
const jsonish = (ids: string[]): fc.Arbitrary<unknown> =>
  fc.oneof(
    fc.jsonValue({ maxDepth: 4 }),
    nastyString,
    plausible(ids),
    fc.integer({ min: 1, max: 2000 }).map((depth) => nested(depth)),
    fc.integer({ min: 1_000, max: 300_000 }).map((length) => 'x'.repeat(length)),
    fc.constantFrom(Number.MAX_SAFE_INTEGER, -0, 1e308, -1e308, 0.1, true, false, null, [], {}),
  );

const nested = (depth: number): unknown => {
  let value: unknown = 'deep';
  for (let level = 0; level < depth; level += 1) value = level % 2 ? [value] : { items: value };
  return value;
};

/** JSON text for any value fast-check can make: what JSON cannot say (bigint, undefined, a Map) falls back. */
const asJson = (value: unknown) =>
  JSON.stringify(value, (_key, inner) => (typeof inner === 'bigint' ? inner.toString() : inner)) ?? 'null';

/** The same fields as a form post, the way the customer sign-in page and PayPal's token endpoint take them. */
const asForm = (fields: Record<string, unknown>) =>
  new URLSearchParams(
    Object.entries(fields).map(([name, value]): [string, string] => [name, asJson(value)]),
  ).toString();

interface Body {
  text: string;
  contentType: string;
}

function bodies(ids: string[]): fc.Arbitrary<Body> {
  const objectBody = fc.dictionary(fc.constantFrom(...FIELD_NAMES, ...HOSTILE_KEYS), jsonish(ids), {
    maxKeys: 8,
  });
  const json = (value: unknown) => ({ text: asJson(value), contentType: 'application/json' });
  return fc.oneof(
    { weight: 4, arbitrary: objectBody.map(json) },
    { weight: 2, arbitrary: jsonish(ids).map(json) },
    fc.anything().map(json),
    objectBody.map((fields) => ({ text: asForm(fields), contentType: 'application/x-www-form-urlencoded' })),
    fc.record({
      text: fc.oneof(
        nastyString,
        fc.constantFrom('{', '{"a":', '[1,]', '{"__proto__":{"isAdmin":true}}', 'nul'),
      ),
      contentType: fc.constantFrom(
        'application/json',
        'application/json; charset=utf-16',
        'text/plain',
        'text/csv',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/octet-stream',
        'image/png',
      ),
    }),
  );
}

const query = fc
  .dictionary(fc.constantFrom(...QUERY_NAMES, ...HOSTILE_KEYS, 'a[b]', 'a[]'), nastyString, { maxKeys: 4 })
  .map((params) => {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(params)) search.append(name, value);
    return search.size > 0 ? `?${search}` : '';
  });

/** Every byte of the UTF-8 escaped, dots and slashes included (a lone surrogate becomes U+FFFD, as in a browser). */
const percentEncoded = (value: string) =>
  [...Buffer.from(value, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');

/**
 * A request to the route: every path parameter and wildcard filled, a query string, and maybe a body. `ids` are
 * the store's real ids for the body, `pathIds` those the path parameters may take too.
 */
function hostileRequest(pattern: string, ids: string[], pathIds: string[], withBody: boolean) {
  const parameter = fc.oneof(
    nastyString.filter((value) => value.length > 0),
    fc.uuid(),
    ...(pathIds.length > 0 ? [fc.constantFrom(...pathIds)] : []),
  );
  const slots = pattern.match(/[:*]\w+/g) ?? [];
  return fc.record({
    path: fc.tuple(fc.tuple(...slots.map(() => parameter)), query).map(([values, search]) => {
      let index = 0;
      const path = pattern.replace(/[:*]\w+/g, () => percentEncoded(values[index++] as string));
      return path + search;
    }),
    body: withBody ? fc.option(bodies(ids), { freq: 5 }) : fc.constant(null),
  });
}
