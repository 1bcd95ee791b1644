import { randomBytes, randomUUID } from 'node:crypto';
import type { AuditEventsQuery } from '@licensestore/contract/audit';
import { inventoryDecider, licenseKeysStream, orderDecider, orderStream } from '@licensestore/domain';
import {
  type AuditEventPage,
  type AuditEventView,
  type DashboardAsOfView,
  maskedKey,
  type OrderAsOfView,
  type OrderHistoryEntry,
} from '@licensestore/domain/audit';
import { handleCommand } from '@licensestore/domain/commands';
import type { EventStore, RecordedEvent } from '@licensestore/domain/events';
import type { DatabaseHandle } from '@licensestore/platform/db';
import { waitForProjections } from '@licensestore/platform/readmodel';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogProjector, createProjectorTables } from '../../../projections/src/index.js';
import { auditEventsQuery } from '../src/audit/event-log.js';
import { signIn, type TestApi } from './support/api.js';
import { type ApiWithReadModel, startApiWithReadModel } from './support/api-with-read-model.js';
import { readEvents, seedProduct } from './support/checkout.js';
import { purchase } from './support/purchase.js';

const ADMIN = { username: 'admin', password: 'correct horse battery staple' };
const SEALED = /v1\.[0-9a-f]{8}\./;
const licenseKey = () =>
  Array.from({ length: 5 }, () => `H${randomBytes(2).toString('hex').toUpperCase()}`).join('-');
const before = (event: RecordedEvent | undefined) =>
  new Date((event?.createdAt.getTime() ?? 0) - 1).toISOString();
const when = (event: RecordedEvent | undefined) => event?.createdAt.toISOString() ?? '';

describe('audit history and time travel', () => {
  let database: DatabaseHandle;
  let eventStore: EventStore;
  let store: ApiWithReadModel | undefined;
  let api: TestApi;
  let admin: string;
  let auditor: string;
  let productId: string;
  let orderId: string;
  let key: string;
  let orderEvents: RecordedEvent[];
  let keyAdded: RecordedEvent | undefined;

  const get = (path: string, cookie?: string) =>
    fetch(`${api.url}${path}`, { headers: cookie ? { cookie } : {} });
  const ok = async <T>(path: string, cookie = auditor): Promise<T> => {
    const response = await get(path, cookie);
    const text = await response.text();
    expect({ path, status: response.status, text }).toMatchObject({ status: 200 });
    return JSON.parse(text) as T;
  };
  const orderOfType = (type: string) => orderEvents.find((event) => event.type === type);
  const eventLog = (query: Record<string, string>) =>
    ok<AuditEventPage>(`/api/audit/events?${new URLSearchParams(query)}`);
  const typesOf = (page: { events: AuditEventView[] }) => page.events.map((event) => event.type);

  /** A paid order waits for a key; an admin adds one, which serves it; then an admin cancels the order. */
  beforeAll(async () => {
    store = await startApiWithReadModel({ env: { ADMIN_PASSWORD: ADMIN.password } });
    ({ api, database, eventStore } = store);
    admin = await signIn(api.url, ADMIN.username, ADMIN.password);
    auditor = await api.sessionCookie({ kind: 'auditor', subjectId: randomUUID() });

    productId = await seedProduct(eventStore, database);
    ({ orderId } = await purchase(api.url, productId));
    const captured = (await readEvents(eventStore, orderStream(orderId)))[0] as RecordedEvent;
    const lineId = (captured.data as { lines: Array<{ lineId: string }> }).lines[0]?.lineId as string;
    const workers = (cause: RecordedEvent) => ({
      actor: { type: 'system' as const, id: 'workers' },
      correlationId: cause.metadata.correlationId,
      causationId: cause.id,
      schemaVersion: 1,
    });
    await handleCommand(
      eventStore,
      licenseKeysStream(productId),
      inventoryDecider,
      {
        type: 'RequestLicenseKeys',
        productId,
        orderId,
        lineId,
        quantity: 1,
        lowStockThreshold: 0,
        now: new Date().toISOString(),
      },
      workers(captured),
    );
    key = licenseKey();
    const added = await fetch(`${api.url}/api/license-keys`, {
      method: 'POST',
      headers: { cookie: admin, 'content-type': 'application/json' },
      body: JSON.stringify({ productId, key }),
    });
    expect(added.status).toBe(201);
    const inventory = await readEvents(eventStore, licenseKeysStream(productId));
    keyAdded = inventory.find((event) => event.type === 'LicenceKeyAdded');
    const assigned = inventory.find((event) => event.type === 'LicenceKeysAssigned') as RecordedEvent;
    // As the reactor does: the order records its keys under the correlation of the decision that gave them.
    await handleCommand(
      eventStore,
      orderStream(orderId),
      orderDecider,
      {
        type: 'RecordLicenseKeys',
        orderId,
        lineId,
        keys: (assigned.data as { keys: Array<{ keyId: string; key: string }> }).keys,
        now: new Date().toISOString(),
      },
      workers(assigned),
    );
    const cancelled = await fetch(`${api.url}/api/orders/${orderId}/status`, {
      method: 'PATCH',
      headers: { cookie: admin, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'cancelled' }),
    });
    expect(cancelled.status).toBe(200);
    orderEvents = await readEvents(eventStore, orderStream(orderId));
    const head = orderEvents.at(-1)?.position as string;
    expect(
      await waitForProjections(database.pool, head, {
        projectors: ['audit-log', 'dashboard', 'orders', 'license-keys', 'products'],
        timeoutMs: 10_000,
      }),
    ).toBe(true);
  });
  afterAll(async () => {
    await store?.stop();
  });

  describe('GET /api/audit/orders/:id/as-of', () => {
    const asOf = (at: string) =>
      ok<OrderAsOfView>(`/api/audit/orders/${orderId}/as-of?at=${encodeURIComponent(at)}`);

    it('answers 404 for a moment before the order was captured', async () => {
      const response = await get(
        `/api/audit/orders/${orderId}/as-of?at=${encodeURIComponent(before(orderEvents[0]))}`,
        auditor,
      );
      expect(response.status).toBe(404);
    });

    it('shows the order as captured: paid, its line and total, no key yet', async () => {
      expect(await asOf(when(orderOfType('OrderCaptured')))).toMatchObject({
        orderId,
        status: 'processing',
        payment: 'completed',
        customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
        total: '100.00',
        fulfilled: false,
        lines: [{ productId, quantity: 1, unitPrice: '100.00', lineTotal: '100.00', keys: [] }],
        lastEvent: { type: 'OrderCaptured' },
      });
    });

    it('shows the key once it was assigned, masked to its last characters, and the order completed', async () => {
      const response = await get(
        `/api/audit/orders/${orderId}/as-of?at=${encodeURIComponent(when(orderOfType('OrderFulfilled')))}`,
        auditor,
      );
      const body = await response.text();
      expect(body).not.toContain(key);
      expect(body).not.toMatch(SEALED);
      expect(JSON.parse(body)).toMatchObject({
        status: 'completed',
        fulfilled: true,
        lines: [{ keys: [{ keyId: expect.any(String), key: maskedKey(key) }] }],
      });
    });

    it('shows the status an admin set afterwards', async () => {
      expect(await asOf(new Date().toISOString())).toMatchObject({
        status: 'cancelled',
        lastEvent: { type: 'OrderStatusChanged' },
      });
    });

    it('refuses a moment that is not an ISO date-time (400) and names no order with a bad id (404)', async () => {
      for (const at of ['', 'yesterday', '2026-13-01T00:00:00Z']) {
        const response = await get(`/api/audit/orders/${orderId}/as-of?at=${at}`, auditor);
        expect({ at, status: response.status }).toEqual({ at, status: 400 });
      }
      for (const id of ['not-an-order', randomUUID()]) {
        expect((await get(`/api/audit/orders/${id}/as-of?at=2026-01-01T00:00:00Z`, auditor)).status).toBe(
          404,
        );
      }
    });
  });

  describe('GET /api/orders/:id/timeline, as an auditor reads it', () => {
    let history: OrderHistoryEntry[];
    let body: string;

    beforeAll(async () => {
      const response = await get(`/api/orders/${orderId}/timeline`, auditor);
      body = await response.text();
      expect(response.status).toBe(200);
      history = JSON.parse(body);
    });

    it("follows the order's correlations: the admin request that added the key which served it", () => {
      expect(history.find((entry) => entry.id === keyAdded?.id)).toMatchObject({
        type: 'LicenceKeyAdded',
        correlated: true,
        actor: { type: 'admin', name: 'admin' },
        data: { productId, key: 'XXXXX-…' },
      });
      expect(history.filter((entry) => !entry.correlated).map((entry) => entry.type)).toEqual([
        'CheckoutStarted',
        'CheckoutCaptured',
        'OrderCaptured',
        'LicenceKeysRequested',
        'LicenceKeysAssigned',
        'OrderLicenceKeysAssigned',
        'OrderFulfilled',
        'OrderStatusChanged',
      ]);
      const positions = history.map((entry) => entry.position);
      expect(positions).toEqual([...positions].sort());
    });

    it('masks every key: neither clear nor sealed', () => {
      expect(body).not.toContain(key);
      expect(body).not.toMatch(SEALED);
      expect(body).toContain(maskedKey(key));
    });
  });

  describe('GET /api/audit/dashboard/as-of', () => {
    const dashboardAt = (at: string) =>
      ok<DashboardAsOfView>(`/api/audit/dashboard/as-of?at=${encodeURIComponent(at)}`);

    it('shows the figures before the order: the product, no orders, no keys', async () => {
      expect(await dashboardAt(before(orderEvents[0]))).toMatchObject({
        totalProducts: 1,
        totalOrders: 0,
        totalCustomers: 0,
        totalRevenue: '0.00',
        recentOrders: [],
        availableKeys: 0,
        assignedKeys: 0,
        ordersAwaitingKeys: 0,
      });
    });

    it('shows the paid order awaiting its key right after the capture', async () => {
      const dashboard = await dashboardAt(when(orderOfType('OrderCaptured')));
      expect(dashboard).toMatchObject({
        totalOrders: 1,
        totalCustomers: 1,
        totalRevenue: '100.00',
        ordersAwaitingKeys: 1,
        recentOrders: [{ id: orderId, status: 'processing', total: '100.00' }],
      });
    });

    it('equals the live dashboard as of now', async () => {
      const { asOf: _asOf, events, ...figures } = await dashboardAt(new Date().toISOString());
      expect(events).toBeGreaterThan(orderEvents.length);
      expect(figures).toEqual(await ok('/api/admin/dashboard', admin));
      expect(figures).toMatchObject({ totalRevenue: '0.00', assignedKeys: 1, ordersAwaitingKeys: 0 });
    });
  });

  describe('GET /api/audit/events', () => {
    it('filters by event type, newest first', async () => {
      const page = await eventLog({ type: 'OrderCaptured' });
      expect(page.events).toMatchObject([{ type: 'OrderCaptured', stream: orderStream(orderId) }]);
      expect(page.next).toBeNull();
    });

    it('filters by order: every event that concerns it, across its streams', async () => {
      expect(typesOf(await eventLog({ order: orderId }))).toEqual([
        'OrderStatusChanged',
        'OrderFulfilled',
        'OrderLicenceKeysAssigned',
        'LicenceKeysAssigned',
        'LicenceKeysRequested',
        'OrderCaptured',
        'CheckoutCaptured',
      ]);
    });

    it('filters by product, an order capture of it included', async () => {
      const types = typesOf(await eventLog({ product: productId }));
      expect(types).toEqual(
        expect.arrayContaining(['ProductCreated', 'LicenceKeyAdded', 'CheckoutStarted', 'OrderCaptured']),
      );
      expect(typesOf(await eventLog({ product: randomUUID() }))).toEqual([]);
    });

    it('filters by actor, naming the admin', async () => {
      const page = await eventLog({ actor: keyAdded?.metadata.actor.id ?? '' });
      expect(typesOf(page)).toEqual([
        'OrderStatusChanged',
        'LicenceKeyStockLow',
        'LicenceKeysAssigned',
        'LicenceKeyAdded',
      ]);
      expect(page.events[0]?.actor).toMatchObject({ type: 'admin', name: 'admin' });
    });

    it('filters by a time range, ends included', async () => {
      const from = when(orderOfType('OrderCaptured'));
      const to = when(orderOfType('OrderFulfilled'));
      const all = await eventLog({ limit: '100' });
      const inRange = all.events.filter((event) => event.recordedAt >= from && event.recordedAt <= to);
      expect(inRange.length).toBeGreaterThan(2);
      expect(await eventLog({ from, to, limit: '100' })).toEqual({ events: inRange, next: null });
      expect(typesOf(await eventLog({ from, to, type: 'OrderFulfilled' }))).toEqual(['OrderFulfilled']);
    });

    it('pages newest first by cursor until the start of the log, combined with a filter', async () => {
      for (const filter of [{}, { order: orderId }] as Array<Record<string, string>>) {
        const whole = await eventLog({ ...filter, limit: '100' });
        const paged: AuditEventView[] = [];
        let page = await eventLog({ ...filter, limit: '2' });
        for (;;) {
          expect(page.events.length).toBeLessThanOrEqual(2);
          paged.push(...page.events);
          if (!page.next) break;
          page = await eventLog({ ...filter, limit: '2', before: page.next });
        }
        expect(paged).toEqual(whole.events);
        expect(whole.events.length).toBeGreaterThan(4);
      }
    });

    it('never shows a key, and shows every event the log holds', async () => {
      const response = await get('/api/audit/events?limit=100', auditor);
      const body = await response.text();
      expect(body).not.toContain(key);
      expect(body).not.toMatch(SEALED);
      const log = await eventStore.readAll(null, 1000);
      expect((JSON.parse(body) as AuditEventPage).events.map((event) => event.id)).toEqual(
        log.map((event) => event.id).reverse(),
      );
    });

    it('refuses bad filters and cursors with 400', async () => {
      for (const query of [
        'limit=0',
        'limit=101',
        'limit=ten',
        'from=yesterday',
        'order=nope',
        'product=1',
        'type=a%20b',
        "before='%3B",
      ]) {
        const response = await get(`/api/audit/events?${query}`, auditor);
        expect({ query, status: response.status }).toEqual({ query, status: 400 });
      }
    });
  });

  it('is for the back office: 401 signed out, 403 for a customer, 200 for an admin', async () => {
    const customer = await api.sessionCookie({ kind: 'customer', subjectId: 'ada@example.com' });
    for (const path of [
      '/api/audit/events',
      `/api/audit/orders/${randomUUID()}/as-of?at=2026-01-01T00:00:00Z`,
      '/api/audit/dashboard/as-of?at=2026-01-01T00:00:00Z',
    ]) {
      expect({ path, status: (await get(path)).status }).toEqual({ path, status: 401 });
      expect({ path, status: (await get(path, customer)).status }).toEqual({ path, status: 403 });
    }
    expect((await get('/api/audit/events', admin)).status).toBe(200);
  });

  describe('query plans over a large log', () => {
    const SCHEMA = 'audit_plans';
    const explain = async (filters: Omit<AuditEventsQuery, 'limit'>) => {
      const { sql: text, parameters } = auditEventsQuery({ ...filters, limit: 50 }).compile(database.db);
      const client = await database.pool.connect();
      try {
        await client.query(`SET search_path = ${SCHEMA}`);
        const { rows } = await client.query(`EXPLAIN (FORMAT JSON) ${text}`, [...parameters]);
        return JSON.stringify(rows[0]);
      } finally {
        await client.query('RESET search_path');
        client.release();
      }
    };

    beforeAll(async () => {
      await sql`CREATE SCHEMA ${sql.id(SCHEMA)}`.execute(database.db);
      await createProjectorTables(database.db, auditLogProjector, SCHEMA);
      // 200,000 events: 40 actors, 25,000 orders of 8 events, 500 products, one event per second.
      await sql`
        INSERT INTO ${sql.table(`${SCHEMA}.audit_log`)}
        SELECT lpad(i::text, 20, '0') || '/' || lpad(i::text, 20, '0'), gen_random_uuid()::text,
               'order-' || (i / 8), 0, (ARRAY['OrderCaptured', 'LicenceKeyAdded', 'OrderFulfilled', 'LicenceKeysAssigned'])[1 + i % 4],
               timestamptz '2026-01-01T00:00:00Z' + i * interval '1 second', 'admin', 'actor-' || (i % 40),
               'corr-' || (i / 4), 'cause', lpad(to_hex(i / 8), 32, '0')::uuid, '{}'::jsonb
          FROM generate_series(1, 200000) AS i`.execute(database.db);
      await sql`
        INSERT INTO ${sql.table(`${SCHEMA}.audit_log_products`)}
        SELECT lpad(to_hex(i % 500), 32, '0')::uuid, lpad(i::text, 20, '0') || '/' || lpad(i::text, 20, '0')
          FROM generate_series(1, 200000) AS i`.execute(database.db);
      await sql`ANALYZE ${sql.table(`${SCHEMA}.audit_log`)}`.execute(database.db);
      await sql`ANALYZE ${sql.table(`${SCHEMA}.audit_log_products`)}`.execute(database.db);
    });
    afterAll(async () => {
      await sql`DROP SCHEMA ${sql.id(SCHEMA)} CASCADE`.execute(database.db);
    });

    const middle = `${'100000'.padStart(20, '0')}/${'100000'.padStart(20, '0')}`;
    it.each([
      ['no filter', {}],
      ['a type', { type: 'OrderFulfilled' }],
      ['an actor', { actor: 'actor-7' }],
      ['an order', { order: '00000000-0000-0000-0000-000000000abc' }],
      ['a product', { product: '00000000-0000-0000-0000-0000000000a1' }],
      ['a time range', { from: new Date('2026-01-02T00:00:00Z'), to: new Date('2026-01-02T06:00:00Z') }],
      ['a type, an actor and a cursor', { type: 'OrderCaptured', actor: 'actor-8', before: middle }],
      [
        'a product and a time range',
        { product: '00000000-0000-0000-0000-0000000000a1', from: new Date('2026-01-02T00:00:00Z') },
      ],
    ])('reads a page filtered by %s through indexes, never a sequential scan', async (_name, filters) => {
      const plan = await explain(filters as Omit<AuditEventsQuery, 'limit'>);
      expect(plan).toContain('Index');
      expect(plan).not.toContain('Seq Scan');
    });
  });
});
