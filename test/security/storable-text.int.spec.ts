import { randomBytes, randomUUID } from 'node:crypto';
import { orderStream } from '@licensestore/domain';
import { createPaypalSandbox, DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '@licensestore/paypal-sandbox';
import { loadConfig } from '@licensestore/platform/config';
import { silentLogger } from '@licensestore/platform/logging';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../services/api/src/app.js';
import { captureCheckout } from '../../services/api/src/checkout/commands.js';
import { createPaypalClient } from '../../services/api/src/payments/client.js';
import { callApi, signIn } from '../../services/api/test/support/api.js';
import {
  type ApiWithReadModel,
  startApiWithReadModel,
} from '../../services/api/test/support/api-with-read-model.js';
import { readEvents } from '../../services/api/test/support/checkout.js';
import { checkoutRequest, cookieSet } from '../../services/api/test/support/purchase.js';
import { isWriteRoute, registeredRoutes } from '../../services/api/test/support/routes.js';
import { emulatorAccessToken } from '../../services/paypal-sandbox/test/support/sandbox.js';
import { testRedisUrl } from '../support/database.js';
import { freshLicenseKey } from '../support/license-keys.js';

const ADMIN = { username: 'admin', password: 'correct horse battery staple' };

/** What broke the store before: each in every text field of every write route. */
const POISONS: Array<[string, string]> = [
  ['NUL', 'A\u0000B'],
  ['a lone surrogate', 'A\ud800B'],
  ['a line separator (U+2028)', 'A\u2028B'],
  ['a bidi override (U+202E)', 'A\u202eB'],
  ['64 KB', 'x'.repeat(64 * 1024)],
];

type Body = Record<string, unknown>;

interface TextRoute {
  /** A buyer: the browser that started the checkout the route names (its `checkout_access` cookie). */
  caller: 'admin' | 'visitor' | 'buyer';
  path: () => string;
  /** A body the route takes; each field in `fields` is poisoned in turn. */
  body: () => Body;
  /** Dotted paths of the body's text fields (`items.0.productName`). */
  fields: string[];
}

/**
 * Write routes that take no text from the body, and why: the table below must name every write route the app
 * registers, so a new route is either walked or explained.
 */
const WITHOUT_TEXT: Record<string, string> = {
  'DELETE /api/products/:id': 'only an id in the path',
  'DELETE /api/license-keys/:id': 'only an id in the path',
  'POST /api/license-keys/:keyId/reveal': 'only an id in the path',
  'DELETE /api/admin/users/:id': 'only an id in the path',
  'POST /api/orders/:id/delivery-email': 'no body',
  'POST /api/objects/upload': 'no body',
  'PUT /api/objects/uploads/:id': 'image bytes, checked by their content',
  'POST /api/admin/logout': 'no body',
  'POST /api/audit/verifications': 'no body',
  'POST /paypal/webhook': 'stored only once PayPal has verified its signature',
  'POST /api/login/callback': 'a sign-in token, looked up and never stored',
  'POST /api/logout': 'no body',
  'POST /api/orders/:id/access': "an order's access token, checked and never stored",
  'POST /api/orders/:id/refunds/:refundId/retry': 'only ids in the path',
  'POST /api/my-orders/:orderId/delivery-email': 'no body',
  'POST /api/admin/reviews/:orderId/approve': 'only an id in the path',
};

/** Where the emulator stands in for PayPal: it stores nothing in the store's log. */
const isEmulatorRoute = (route: string) => route.split(' ')[1]?.startsWith('/paypal-sandbox') ?? false;

const poisoned = (body: Body, field: string, value: string): Body => {
  const copy = structuredClone(body);
  const path = field.split('.');
  let target = copy as Record<string, unknown>;
  for (const key of path.slice(0, -1)) target = target[key] as Record<string, unknown>;
  target[path.at(-1) as string] = value;
  return copy;
};

describe('Text a route would store', () => {
  let store: ApiWithReadModel;
  let url: string;
  let admin: string;
  let productId: string;
  let orderId: string;
  /** Approved at the emulator and never captured: every poisoned capture must leave it so. */
  let approvedPaypalOrderId: string;
  let emulatorToken: string;

  const productFields = () => ({
    name: 'Office 2024',
    description: 'A license.\nFor one PC.',
    imageUrl: '/images/products/office.svg',
    category: 'Office',
    platform: 'Windows',
    regularPrice: '19.99',
    salePrice: '9.99',
  });

  const ROUTES: Record<string, TextRoute> = {
    'POST /api/products': {
      caller: 'admin',
      path: () => '/api/products',
      body: productFields,
      fields: Object.keys(productFields()),
    },
    'PATCH /api/products/:id': {
      caller: 'admin',
      path: () => `/api/products/${productId}`,
      body: productFields,
      fields: Object.keys(productFields()),
    },
    'PUT /api/admin/risk-rules': {
      caller: 'admin',
      path: () => '/api/admin/risk-rules',
      body: () => ({ blockedEmailDomains: ['example.net'] }),
      fields: ['blockedEmailDomains.0'],
    },
    'POST /api/admin/risk-rules/what-if': {
      caller: 'admin',
      path: () => '/api/admin/risk-rules/what-if',
      body: () => ({ draft: { blockedEmailDomains: ['example.net'] } }),
      fields: ['draft.blockedEmailDomains.0'],
    },
    'POST /api/admin/reviews/:orderId/reject': {
      caller: 'admin',
      path: () => `/api/admin/reviews/${orderId}/reject`,
      body: () => ({ reason: 'Card reported stolen' }),
      fields: ['reason'],
    },
    'PATCH /api/orders/:id/status': {
      caller: 'admin',
      path: () => `/api/orders/${orderId}/status`,
      body: () => ({ status: 'completed' }),
      fields: ['status'],
    },
    'POST /api/orders/:id/refunds': {
      caller: 'admin',
      path: () => `/api/orders/${orderId}/refunds`,
      body: () => ({ all: true, reason: 'Bought by mistake' }),
      fields: ['reason'],
    },
    'POST /api/license-keys': {
      caller: 'admin',
      path: () => '/api/license-keys',
      body: () => ({ productId, key: freshLicenseKey() }),
      fields: ['productId', 'key'],
    },
    'POST /api/license-keys/import': {
      caller: 'admin',
      path: () => '/api/license-keys/import',
      body: () => ({ productId, keys: freshLicenseKey() }),
      fields: ['productId', 'keys'],
    },
    'POST /api/objects/normalize': {
      caller: 'admin',
      path: () => '/api/objects/normalize',
      body: () => ({ imageURL: `${url}/api/objects/uploads/${randomUUID()}` }),
      fields: ['imageURL'],
    },
    'POST /api/admin/users': {
      caller: 'admin',
      path: () => '/api/admin/users',
      body: () => ({
        username: `kim-${randomUUID().slice(0, 8)}`,
        password: 'a long enough password',
        role: 'auditor',
      }),
      fields: ['username', 'password', 'role'],
    },
    'POST /api/admin/login': {
      caller: 'visitor',
      path: () => '/api/admin/login',
      body: () => ({ username: ADMIN.username, password: ADMIN.password }),
      fields: ['username', 'password'],
    },
    'POST /api/login': {
      caller: 'visitor',
      path: () => '/api/login',
      body: () => ({ email: 'ada@example.com' }),
      fields: ['email'],
    },
    'POST /paypal/order': {
      caller: 'visitor',
      path: () => '/paypal/order',
      body: () => ({
        amount: '100.00',
        currency: 'USD',
        intent: 'CAPTURE',
        items: [{ productId, quantity: 1 }],
        customerName: 'Ada Lovelace',
        customerEmail: 'ada@example.com',
      }),
      fields: ['amount', 'currency', 'intent', 'items.0.productId', 'customerName', 'customerEmail'],
    },
    'POST /paypal/order/:orderID/capture': {
      caller: 'buyer',
      path: () => `/paypal/order/${approvedPaypalOrderId}/capture`,
      body: () => ({
        customerName: 'Ada Lovelace',
        customerEmail: 'ada@example.com',
        items: [{ productId, productName: 'Office', price: '100.00', quantity: 1 }],
      }),
      fields: ['customerName', 'customerEmail', 'items.0.productId', 'items.0.productName', 'items.0.price'],
    },
  };

  /** The log's last position: nothing a refused request does may move it. */
  const logHead = async () => {
    const { rows } = await store.database.pool.query<{ head: string | null }>(
      'SELECT max(global_position)::text AS head FROM event_store.events',
    );
    return rows[0]?.head ?? null;
  };

  const emulatorOrderStatus = async (paypalOrderId: string) => {
    const response = await fetch(`${url}/paypal-sandbox/v2/checkout/orders/${paypalOrderId}`, {
      headers: { authorization: `Bearer ${emulatorToken}` },
    });
    return ((await response.json()) as { status: string }).status;
  };

  /** The cookie each PayPal order's starting browser got. */
  const checkoutCookies = new Map<string, string>();
  const callerCookie = (caller: TextRoute['caller']) =>
    caller === 'admin' ? admin : caller === 'buyer' ? checkoutCookies.get(approvedPaypalOrderId) : undefined;

  const approvedPaypalOrder = async () => {
    const created = await callApi(url, 'POST', '/paypal/order', {
      body: checkoutRequest(productId, '100.00'),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    checkoutCookies.set(id, cookieSet(created, 'checkout_access'));
    const approved = await callApi(url, 'POST', `/paypal-sandbox/buyer/orders/${id}/approve`, {
      body: { choice: 'approve' },
    });
    expect(approved.status).toBe(200);
    return id;
  };

  const capture = (paypalOrderId: string, customerName: string) =>
    callApi(url, 'POST', `/paypal/order/${paypalOrderId}/capture`, {
      cookie: checkoutCookies.get(paypalOrderId),
      body: { customerName, customerEmail: 'ada@example.com' },
    });

  beforeAll(async () => {
    store = await startApiWithReadModel({
      env: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password },
    });
    url = store.api.url;
    admin = await signIn(url, ADMIN.username, ADMIN.password);
    productId = await store.productWithKeys(20, { regularPrice: '100.00' });
    emulatorToken = await emulatorAccessToken(`${url}/paypal-sandbox`);
    const paid = await capture(await approvedPaypalOrder(), 'Grace Hopper');
    expect(paid.status).toBe(200);
    orderId = ((await paid.json()) as { id: string }).id;
    approvedPaypalOrderId = await approvedPaypalOrder();
  });
  afterAll(() => store?.stop());

  it('walks every write route the app registers (the PayPal emulator aside)', async () => {
    const redis = new Redis(testRedisUrl(), { lazyConnect: true });
    const sandbox = createPaypalSandbox({ logger: silentLogger });
    try {
      const app = createApp({
        config: loadConfig({
          NODE_ENV: 'test',
          DATABASE_URL: store.databaseUrl,
          SESSION_SECRET: randomBytes(32).toString('hex'),
          LICENSE_KEY_SECRET: randomBytes(32).toString('base64url'),
        }),
        database: store.database,
        eventStore: store.eventStore,
        redis,
        logger: silentLogger,
        payments: { sandbox },
      });
      const writes = [...new Set(registeredRoutes(app.router).filter(isWriteRoute))].filter(
        (route) => !isEmulatorRoute(route),
      );
      expect(writes.filter((route) => !(route in ROUTES) && !(route in WITHOUT_TEXT))).toEqual([]);
      expect(
        [...Object.keys(ROUTES), ...Object.keys(WITHOUT_TEXT)].filter((r) => !writes.includes(r)),
      ).toEqual([]);
    } finally {
      await sandbox.close();
      redis.disconnect();
    }
  });

  describe.each(Object.entries(ROUTES))('%s', (name, route) => {
    const method = name.split(' ')[0] as string;
    const cases = route.fields.flatMap((field) => POISONS.map(([what, value]) => ({ field, what, value })));
    it.each(cases)(
      'refuses $what in $field with a described 4xx, appending nothing',
      async ({ field, value }) => {
        const before = await logHead();
        const body = poisoned(route.body(), field, value);
        const cookie = callerCookie(route.caller);
        const response = await callApi(url, method, route.path(), { cookie, body });
        const text = await response.text();
        const answer = `${response.status} ${text.slice(0, 200)}`;
        expect(response.status, answer).toBeGreaterThanOrEqual(400);
        expect(response.status, answer).toBeLessThan(500);
        expect(response.headers.get('content-type'), answer).toMatch(/^application\/json/);
        expect((JSON.parse(text) as { error?: unknown }).error, answer).toEqual(expect.any(String));
        expect(await logHead()).toBe(before);
      },
    );
  });

  it('left the PayPal order every poisoned capture named uncaptured', async () => {
    expect(await emulatorOrderStatus(approvedPaypalOrderId)).toBe('APPROVED');
  });

  describe('a buyer whose name holds NUL (the paid order once lost to it)', () => {
    it('is refused before PayPal captures, and the same PayPal order is then paid with a good name', async () => {
      const paypalOrderId = await approvedPaypalOrder();
      const before = await logHead();
      const refused = await capture(paypalOrderId, 'A\u0000B');
      expect(refused.status).toBe(400);
      expect(await refused.json()).toEqual({
        error: 'Name contains a character that cannot be stored (U+0000)',
      });
      expect(await logHead()).toBe(before);
      expect(await emulatorOrderStatus(paypalOrderId)).toBe('APPROVED');

      const paid = await capture(paypalOrderId, 'Ada Lovelace');
      expect(paid.status).toBe(200);
      expect(await paid.json()).toMatchObject({ customerName: 'Ada Lovelace', status: 'processing' });
      expect(await emulatorOrderStatus(paypalOrderId)).toBe('COMPLETED');
    });
  });

  describe("PayPal's payer, read after the money has moved (the webhook's reconciliation)", () => {
    it('is made storable, never refused: the order is placed with the cleaned name', async () => {
      const paypalOrderId = await approvedPaypalOrder();
      const paypal = createPaypalClient({
        baseUrl: `${url}/paypal-sandbox`,
        clientId: DEFAULT_CLIENT_ID,
        clientSecret: DEFAULT_CLIENT_SECRET,
        logger: silentLogger,
      });
      const result = await captureCheckout(
        { eventStore: store.eventStore, database: store.database, paypal, logger: silentLogger },
        paypalOrderId,
        () => ({ name: ' Ada\u0000Love\ud800lace\u202e ', email: 'ada\u0000@example.com' }),
        { actor: { type: 'system', id: 'paypal-webhook' }, correlationId: 'test', causationId: 'test' },
      );
      expect(result.order.customer).toEqual({ name: 'Ada Love lace', email: 'unknown@paypal.invalid' });
      const [placed] = await readEvents(store.eventStore, orderStream(result.order.orderId));
      expect(placed?.type).toBe('OrderCaptured');
      expect(await emulatorOrderStatus(paypalOrderId)).toBe('COMPLETED');
    });
  });
});
