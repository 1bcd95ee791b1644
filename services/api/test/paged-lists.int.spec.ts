import { randomUUID } from 'node:crypto';
import type { CustomerView } from '@licensestore/contract/customers';
import { type OrderListFilters, orderListFiltersSchema } from '@licensestore/contract/orders';
import type { Page } from '@licensestore/contract/paging';
import type { OrderView } from '@licensestore/domain';
import type { EventStore } from '@licensestore/domain/events';
import { orderNumber } from '@licensestore/domain/orders/order-number';
import { type DatabaseHandle, openDatabase } from '@licensestore/platform/db';
import { openEventStore } from '@licensestore/platform/eventstore';
import { waitForProjections } from '@licensestore/platform/readmodel';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger, startProjections } from '../../../projections/src/index.js';
import {
  appendOrder,
  orderCaptured,
  orderLine,
  statusChanged,
} from '../../../projections/test/support/orders.js';
import { createTestDatabase } from '../../../test/support/database.js';
import { CUSTOMER_KEYSET, customerListQuery } from '../src/customers/queries.js';
import { keysetQuery, type PageParams } from '../src/http/paging.js';
import { ORDER_KEYSET, orderListQuery } from '../src/orders/queries.js';
import { signIn, startTestApi, type TestApi } from './support/api.js';

const ADMIN = { username: 'admin', password: 'correct horse battery staple' };
const READ_MODELS = ['orders', 'customers'];

/** Captured at noon UTC of that day of June 2026. */
const at = (day: number, minute = 0) => new Date(Date.UTC(2026, 5, day, 12, minute)).toISOString();

describe('Paged back-office lists', () => {
  let database: DatabaseHandle;
  let eventStore: EventStore;
  let stopProjections: () => Promise<void>;
  let api: TestApi;
  let admin: string;
  let last = '';
  const placed: Array<ReturnType<typeof orderCaptured>['data']> = [];

  const get = (path: string) => fetch(`${api.url}${path}`, { headers: { cookie: admin } });
  const page = async <T>(path: string): Promise<Page<T>> => {
    const response = await get(path);
    expect(response.status, await response.clone().text()).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    return (await response.json()) as Page<T>;
  };
  const ids = (orders: Page<OrderView>) => orders.items.map((order) => order.id);

  const place = async (options: {
    name: string;
    email: string;
    price: string;
    capturedAt: string;
    paypalOrderId?: string;
  }) => {
    const event = orderCaptured({ ...options, lines: [orderLine('Office 2024', 1, options.price)] });
    const { position } = await appendOrder(eventStore, event.data.orderId, event);
    if (position > last) last = position;
    placed.push(event.data);
    return event.data;
  };
  const projected = async () =>
    expect(
      await waitForProjections(database.pool, last, { projectors: READ_MODELS, timeoutMs: 10_000 }),
    ).toBe(true);

  /** Every page of a list, following `nextCursor`, with `between` run after each page. */
  const allPages = async <T>(path: string, between: (index: number) => Promise<void> = async () => {}) => {
    const pages: Array<Page<T>> = [];
    let cursor: string | null = null;
    do {
      const separator = path.includes('?') ? '&' : '?';
      const next: Page<T> = await page<T>(
        cursor ? `${path}${separator}cursor=${encodeURIComponent(cursor)}` : path,
      );
      pages.push(next);
      await between(pages.length);
      cursor = next.nextCursor;
    } while (cursor !== null && pages.length < 50);
    return pages;
  };

  const newestFirst = (a: { capturedAt: string; orderId: string }, b: typeof a) =>
    b.capturedAt.localeCompare(a.capturedAt) || b.orderId.localeCompare(a.orderId);

  beforeAll(async () => {
    const databaseUrl = await createTestDatabase();
    stopProjections = await startProjections({ databaseUrl, logger: silentLogger });
    api = await startTestApi({ databaseUrl, env: { ADMIN_PASSWORD: ADMIN.password } });
    database = openDatabase(databaseUrl);
    eventStore = await openEventStore({ databaseUrl });
    admin = await signIn(api.url, ADMIN.username, ADMIN.password);
    // Twelve orders over six days, two a day at the same instant (ties broken by id), from four customers.
    const customers = [
      { name: 'Ada Lovelace', email: 'ada@example.com' },
      { name: 'Grace Hopper', email: 'grace@navy.example' },
      { name: 'Alan Turing', email: 'alan@bletchley.example' },
      { name: 'Edsger 100%_Dijkstra', email: 'edsger@example.org' },
    ];
    for (let index = 0; index < 12; index++) {
      const customer = customers[index % customers.length] as (typeof customers)[number];
      await place({ ...customer, price: `${10 + index}.00`, capturedAt: at(1 + Math.floor(index / 2)) });
    }
    const cancelled = placed[3] as (typeof placed)[number];
    const { position } = await appendOrder(
      eventStore,
      cancelled.orderId,
      statusChanged(cancelled.orderId, 'processing', 'cancelled', at(20)),
    );
    last = position;
    await projected();
  });
  afterAll(async () => {
    await api?.stop();
    await stopProjections?.();
    await eventStore?.close();
    await database?.close();
  });

  describe('GET /api/admin/orders', () => {
    it('answers the newest 25 orders by default, without a way back', async () => {
      const first = await page<OrderView>('/api/admin/orders');
      expect(ids(first)).toEqual([...placed].sort(newestFirst).map((order) => order.orderId));
      expect(first).toMatchObject({ nextCursor: null, prevCursor: null });
      expect(first.items[0]).toStrictEqual(
        expect.objectContaining({ customerName: expect.any(String), total: expect.any(String) }),
      );
    });

    it('pages through every order once while orders are placed between pages', async () => {
      const before = [...placed];
      const added: typeof placed = [];
      const pages = await allPages<OrderView>('/api/admin/orders?limit=5', async (index) => {
        if (index > 2) return;
        // One newer than all (ahead of the cursor, so not on a later page) and one older (still to come).
        added.push(
          await place({ name: 'Late Newer', email: 'newer@example.com', price: '5.00', capturedAt: at(28) }),
        );
        added.push(
          await place({ name: 'Late Older', email: 'older@example.com', price: '5.00', capturedAt: at(0) }),
        );
        await projected();
      });
      const seen = pages.flatMap(ids);
      expect(new Set(seen).size).toBe(seen.length);
      const older = added.filter((order) => order.customer.name === 'Late Older');
      expect(seen).toEqual([...before, ...older].sort(newestFirst).map((order) => order.orderId));
      expect(pages.slice(0, -1).every((each) => each.items.length === 5)).toBe(true);
    });

    it('goes back a page to exactly the rows it showed', async () => {
      const first = await page<OrderView>('/api/admin/orders?limit=4');
      const second = await page<OrderView>(`/api/admin/orders?limit=4&cursor=${first.nextCursor}`);
      const third = await page<OrderView>(`/api/admin/orders?limit=4&cursor=${second.nextCursor}`);
      const backToSecond = await page<OrderView>(`/api/admin/orders?limit=4&cursor=${third.prevCursor}`);
      expect(ids(backToSecond)).toEqual(ids(second));
      const backToFirst = await page<OrderView>(`/api/admin/orders?limit=4&cursor=${second.prevCursor}`);
      expect(ids(backToFirst)).toEqual(ids(first));
      expect(backToFirst.prevCursor).toBeNull();
    });

    it('sorts by total either way, ties broken by id', async () => {
      const all = (await page<OrderView>('/api/admin/orders?limit=100')).items;
      const byTotal = [...all].sort((a, b) => Number(a.total) - Number(b.total) || a.id.localeCompare(b.id));
      const ascending = await allPages<OrderView>('/api/admin/orders?sort=total&dir=asc&limit=3');
      expect(ascending.flatMap(ids)).toEqual(byTotal.map((order) => order.id));
      const descending = await allPages<OrderView>('/api/admin/orders?sort=total&dir=desc&limit=7');
      expect(descending.flatMap(ids)).toEqual(byTotal.reverse().map((order) => order.id));
    });

    it('filters by status, by day (both ends included) and by customer', async () => {
      const cancelled = await page<OrderView>('/api/admin/orders?status=cancelled');
      expect(ids(cancelled)).toEqual([placed[3]?.orderId]);
      const days = await page<OrderView>('/api/admin/orders?from=2026-06-02&to=2026-06-03');
      expect(ids(days).sort()).toEqual(
        placed
          .slice(2, 6)
          .map((order) => order.orderId)
          .sort(),
      );
      const grace = await page<OrderView>('/api/admin/orders?customer=%20GRACE@navy.example');
      expect(grace.items.map((order) => order.customerEmail)).toEqual([
        'grace@navy.example',
        'grace@navy.example',
        'grace@navy.example',
      ]);
    });

    it('searches order numbers, ids, PayPal ids, names and e-mail addresses', async () => {
      const target = placed[5] as (typeof placed)[number];
      const search = async (q: string) =>
        ids(await page<OrderView>(`/api/admin/orders?limit=100&q=${encodeURIComponent(q)}`));
      expect(await search(orderNumber(target.orderId))).toContain(target.orderId);
      expect(await search(target.orderId.slice(0, 8))).toContain(target.orderId);
      expect(await search(target.orderId.toUpperCase())).toEqual([target.orderId]);
      expect(await search(target.paypalOrderId)).toEqual([target.orderId]);
      const byName = placed.filter((order) => order.customer.name === 'Grace Hopper');
      expect((await search('hopp')).sort()).toEqual(byName.map((order) => order.orderId).sort());
      expect((await search('NAVY.EX')).sort()).toEqual(byName.map((order) => order.orderId).sort());
      expect((await search(' Grace@NAVY.example ')).sort()).toEqual(
        byName.map((order) => order.orderId).sort(),
      );
      // Wildcards are characters like any other.
      expect(await search('0%_D')).toHaveLength(3);
      expect(await search('a%a')).toEqual([]);
      expect(await search('nobody-by-that-name')).toEqual([]);
    });

    it.each([
      ['limit=0', 'limit: must be a whole number from 1 to 100'],
      ['limit=101', 'limit: must be a whole number from 1 to 100'],
      ['limit=ten', 'limit: must be a whole number from 1 to 100'],
      ['sort=name', 'sort: must be one of createdAt, total'],
      ['dir=up', 'dir: must be asc or desc'],
      ['cursor=not-a-cursor', 'cursor: is not a page of this list; start again from the first page'],
      ['status=shipped', 'status: must be one of pending, processing, completed, cancelled, refunded'],
      ['from=2026-02-30', 'from: 2026-02-30 is no date'],
      ['to=yesterday', 'to: must be a date like 2026-11-26'],
      ['from=2026-06-03&to=2026-06-02', 'to: must not be before from'],
      ['q=ab', 'q: must have at least 3 characters'],
      ['q=ada%00', 'q: contains a character that cannot be stored (U+0000)'],
      ['customer=ada%00@example.com', 'customer: contains a character that cannot be stored (U+0000)'],
      [
        'status=cancelled&status=pending',
        'status: must be one of pending, processing, completed, cancelled, refunded',
      ],
    ])('refuses %s with a 400 naming the parameter', async (query, error) => {
      const response = await get(`/api/admin/orders?${query}`);
      expect({ status: response.status, body: await response.json() }).toEqual({
        status: 400,
        body: { error },
      });
    });

    it('leads back from an empty page past the last order to the orders up to it', async () => {
      const oldest = (await page<OrderView>('/api/admin/orders?dir=asc&limit=2')).items;
      const pastEnd = Buffer.from(
        JSON.stringify({
          s: 'createdAt',
          d: 'desc',
          k: oldest[0]?.createdAt,
          i: oldest[0]?.id,
          b: false,
          n: false,
        }),
      ).toString('base64url');
      const empty = await page<OrderView>(`/api/admin/orders?limit=2&cursor=${pastEnd}`);
      expect(empty).toMatchObject({ items: [], nextCursor: null });
      const back = await page<OrderView>(`/api/admin/orders?limit=2&cursor=${empty.prevCursor}`);
      expect(ids(back)).toEqual(oldest.map((order) => order.id).reverse());
    });

    it("refuses another sort's cursor, or a cursor whose values were tampered with", async () => {
      const { nextCursor } = await page<OrderView>('/api/admin/orders?limit=2');
      const other = await get(`/api/admin/orders?limit=2&sort=total&cursor=${nextCursor}`);
      expect(other.status).toBe(400);
      expect(await other.json()).toEqual({
        error: 'cursor: belongs to another sort order; start again from the first page of this one',
      });
      const decoded = JSON.parse(Buffer.from(String(nextCursor), 'base64url').toString());
      const tampered = Buffer.from(JSON.stringify({ ...decoded, k: "'; DROP TABLE orders" })).toString(
        'base64url',
      );
      expect((await get(`/api/admin/orders?cursor=${tampered}`)).status).toBe(400);
    });
  });

  describe('GET /api/admin/customers', () => {
    it('pages through every customer, the latest buyer first', async () => {
      const everyone = (await page<CustomerView>('/api/admin/customers?limit=100')).items;
      const pages = await allPages<CustomerView>('/api/admin/customers?limit=2');
      expect(pages.flatMap((each) => each.items)).toEqual(everyone);
      expect(everyone.map((customer) => customer.lastOrderDate)).toEqual(
        everyone
          .map((customer) => customer.lastOrderDate)
          .sort()
          .reverse(),
      );
      expect(everyone.find((customer) => customer.email === 'ada@example.com')).toEqual({
        email: 'ada@example.com',
        name: 'Ada Lovelace',
        orderCount: 3,
        totalSpent: '42.00',
        lastOrderDate: at(5),
      });
    });

    it('sorts by name and by money spent', async () => {
      const names = await allPages<CustomerView>('/api/admin/customers?sort=name&dir=asc&limit=2');
      const listed = names.flatMap((each) => each.items.map((customer) => customer.name));
      expect(listed).toEqual([...listed].sort((a, b) => (a < b ? -1 : 1)));
      const spent = (await page<CustomerView>('/api/admin/customers?sort=totalSpent&dir=desc')).items;
      const totals = spent.map((customer) => Number(customer.totalSpent));
      expect(totals).toEqual([...totals].sort((a, b) => b - a));
    });

    it('searches names and e-mail addresses', async () => {
      const search = async (q: string) =>
        (await page<CustomerView>(`/api/admin/customers?q=${encodeURIComponent(q)}`)).items.map(
          (customer) => customer.email,
        );
      expect(await search('TURING')).toEqual(['alan@bletchley.example']);
      expect(await search('navy')).toEqual(['grace@navy.example']);
      expect(await search('Grace@Navy.example')).toEqual(['grace@navy.example']);
      expect(await search('zzz')).toEqual([]);
    });

    it('refuses a bad sort, cursor or search with a 400', async () => {
      const nul = Buffer.from(
        JSON.stringify({ s: 'name', d: 'asc', k: 'A\u0000B', i: 'ada@example.com', b: false, n: false }),
      ).toString('base64url');
      for (const query of [
        'sort=total',
        'cursor=abc',
        'q=x',
        'dir=sideways',
        'q=ab%00c',
        `sort=name&dir=asc&cursor=${nul}`,
      ]) {
        expect((await get(`/api/admin/customers?${query}`)).status, query).toBe(400);
      }
    });

    it('answers one customer by e-mail address, and 404 for an address that never ordered', async () => {
      const response = (await page<never>('/api/admin/customers/Ada%40Example.com')) as unknown;
      expect(response).toMatchObject({ email: 'ada@example.com', orderCount: 3 });
      const unknown = await get('/api/admin/customers/nobody%40example.com');
      expect({ status: unknown.status, body: await unknown.json() }).toEqual({
        status: 404,
        body: { error: 'Customer not found' },
      });
    });
  });

  describe('every list query', () => {
    /**
     * The plan's node types, with enable_seqscan off: a Seq Scan left means no index can answer the query. `ordered`
     * turns bitmap scans off too, asking whether an index reads the rows in the page's order: on tables this small a
     * bitmap scan and a sort of its few rows cost less, as they never do for a page of a large table.
     */
    const plan = async (
      build: (db: Kysely<never>) => { explain: (format: 'json') => Promise<unknown[]> },
      { ordered = false } = {},
    ) =>
      database.db.transaction().execute(async (trx) => {
        await sql`SET LOCAL enable_seqscan = off`.execute(trx);
        if (ordered) await sql`SET LOCAL enable_bitmapscan = off`.execute(trx);
        const [row] = (await build(trx as unknown as Kysely<never>).explain('json')) as Array<{
          'QUERY PLAN': unknown;
        }>;
        return JSON.stringify(row?.['QUERY PLAN']);
      });
    const cursorPage = <S extends string>(sort: S, value: string, id: string): PageParams<S> => ({
      limit: 25,
      sort,
      dir: 'desc',
      cursor: { value, id, before: false, inclusive: false },
    });
    const filters = (query: Record<string, string>): OrderListFilters => orderListFiltersSchema.parse(query);

    it.each<[string, Record<string, string>, PageParams<'createdAt' | 'total'>, boolean]>([
      ['newest first', {}, cursorPage('createdAt', at(3), randomUUID()), true],
      ['by total', {}, cursorPage('total', '12.00', randomUUID()), true],
      ['by status', { status: 'cancelled' }, cursorPage('createdAt', at(3), randomUUID()), true],
      ['by status and total', { status: 'processing' }, cursorPage('total', '12.00', randomUUID()), true],
      [
        'by day',
        { from: '2026-06-02', to: '2026-06-04' },
        cursorPage('createdAt', at(3), randomUUID()),
        true,
      ],
      ['by customer', { customer: 'ada@example.com' }, cursorPage('createdAt', at(3), randomUUID()), true],
      ['by search', { q: 'hopper' }, cursorPage('createdAt', at(3), randomUUID()), false],
      ['by order number', { q: '#1A2B3C4D' }, cursorPage('createdAt', at(3), randomUUID()), false],
    ])('reads orders %s through an index', async (_name, query, params, ordered) => {
      const shown = await plan(
        (db) => keysetQuery(orderListQuery(db as never, filters(query)), ORDER_KEYSET, params),
        { ordered },
      );
      expect(shown).not.toContain('Seq Scan');
      expect(shown).toContain('Index');
      // Without a search, the index gives the order too: no sort of the matching rows.
      if (ordered) expect(shown).not.toContain('"Sort"');
    });

    // A trigram index reads every row that shares a fragment as common as "@gmail.com" with the address.
    it('finds the orders of a whole e-mail address through its key, not the trigram indexes', async () => {
      const shown = await plan((db) =>
        keysetQuery(
          orderListQuery(db as never, filters({ q: 'Ada@Example.com' })),
          ORDER_KEYSET,
          cursorPage('createdAt', at(3), randomUUID()),
        ),
      );
      expect(shown).toMatch(/orders_customer_(email_key|created_at)_idx/);
      expect(shown).not.toContain('trgm');
    });

    it('finds the customer of a whole e-mail address through its key, not the trigram indexes', async () => {
      const shown = await plan((db) =>
        keysetQuery(
          customerListQuery(db as never, { q: 'Ada@Example.com' }),
          CUSTOMER_KEYSET,
          cursorPage('lastOrderDate', at(3), 'ada@example.com'),
        ),
      );
      expect(shown).toContain('customers_pkey');
      expect(shown).not.toContain('trgm');
    });

    it.each<[string, string | undefined, PageParams<'lastOrderDate' | 'totalSpent' | 'name'>, boolean]>([
      ['latest first', undefined, cursorPage('lastOrderDate', at(3), 'ada@example.com'), true],
      ['by money spent', undefined, cursorPage('totalSpent', '12.00', 'ada@example.com'), true],
      ['by name', undefined, cursorPage('name', 'Grace', 'ada@example.com'), true],
      ['by search', 'lovelace', cursorPage('lastOrderDate', at(3), 'ada@example.com'), false],
    ])('reads customers %s through an index', async (_name, q, params, ordered) => {
      const shown = await plan(
        (db) => keysetQuery(customerListQuery(db as never, { q }), CUSTOMER_KEYSET, params),
        { ordered },
      );
      expect(shown).not.toContain('Seq Scan');
      expect(shown).toContain('Index');
      if (ordered) expect(shown).not.toContain('"Sort"');
    });
  });
});
