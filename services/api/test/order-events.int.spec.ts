import { randomUUID } from 'node:crypto';
import { type OrderEvent, orderEventSchemas } from '@licensestore/domain';
import type { EventStore } from '@licensestore/domain/events';
import type { DatabaseHandle } from '@licensestore/platform/db';
import { waitForProjections } from '@licensestore/platform/readmodel';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  appendOrder,
  orderCaptured,
  orderLine,
  statusChanged,
} from '../../../projections/test/support/orders.js';
import { startTestApi, type TestApi } from './support/api.js';
import { type ApiWithReadModel, startApiWithReadModel } from './support/api-with-read-model.js';
import { listeningConnections } from './support/listening.js';
import { openStream } from './support/order-stream.js';

describe('GET /api/orders/:orderId/events', () => {
  let database: DatabaseHandle;
  let eventStore: EventStore;
  let store: ApiWithReadModel;
  let api: TestApi;
  let last = '';

  const recorded = async (orderId: string, ...events: OrderEvent[]) => {
    const { position } = await appendOrder(eventStore, orderId, ...events);
    if (position > last) last = position;
    expect(await waitForProjections(database.pool, last, { projectors: ['orders'], timeoutMs: 10_000 })).toBe(
      true,
    );
  };
  const placeOrder = async (name = 'Ada Lovelace') => {
    const captured = orderCaptured({
      name,
      email: 'ada@example.com',
      lines: [orderLine('Windows 11 Pro', 2, '19.99')],
      capturedAt: new Date().toISOString(),
    });
    await recorded(captured.data.orderId, captured);
    return captured.data;
  };
  const keysAssigned = (order: { orderId: string; lines: Array<{ lineId: string }> }, ...keys: string[]) =>
    ({
      type: 'OrderLicenceKeysAssigned',
      data: orderEventSchemas.OrderLicenceKeysAssigned.parse({
        orderId: order.orderId,
        lineId: order.lines[0]?.lineId,
        keys: keys.map((key) => ({ keyId: randomUUID(), key: api.keyVault.seal(key) })),
        assignedAt: new Date().toISOString(),
      }),
    }) as OrderEvent;
  const events = (orderId: string) => `${api.url}/api/orders/${orderId}/events`;
  /** The paying browser's page: it holds the order's access cookie, so its snapshots carry the keys. */
  const openOwnStream = (orderId: string, url = events(orderId)) =>
    openStream(url, `order_access=${api.orderAccess.token('order-cookie', orderId)}`);

  beforeAll(async () => {
    // More pages than one client may open in production: these tests watch many pages from one address.
    store = await startApiWithReadModel({ orderStreams: { perClient: 100 } });
    ({ api, database, eventStore } = store);
  });
  afterAll(() => store?.stop());

  it('answers an event stream that nothing caches, starting with the order and its items', async () => {
    const order = await placeOrder();
    const stream = await openOwnStream(order.orderId);
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(stream.response.headers.get('cache-control')).toBe('no-store');
    expect(await stream.next()).toMatchObject({
      order: { id: order.orderId, status: 'processing', customerName: 'Ada Lovelace' },
      items: [{ productName: 'Windows 11 Pro', licenseKey: null, licenseKeys: [] }],
    });
    stream.leave();
  });

  it('pushes the order again when its keys arrive and when its status changes', async () => {
    const order = await placeOrder();
    const stream = await openOwnStream(order.orderId);
    await stream.next();

    await recorded(order.orderId, keysAssigned(order, 'AAAAA-11111', 'BBBBB-22222'));
    expect((await stream.next()).items).toMatchObject([
      { licenseKey: 'AAAAA-11111', licenseKeys: ['AAAAA-11111', 'BBBBB-22222'] },
    ]);

    await recorded(
      order.orderId,
      statusChanged(order.orderId, 'processing', 'completed', new Date().toISOString()),
    );
    expect((await stream.next()).order.status).toBe('completed');
    stream.leave();
  });

  it('pushes only to the pages whose order changed, to every page of that order', async () => {
    const [first, second] = [await placeOrder('First'), await placeOrder('Second')];
    const firstPages = [await openOwnStream(first.orderId), await openOwnStream(first.orderId)];
    const secondPage = await openOwnStream(second.orderId);
    for (const page of [...firstPages, secondPage]) await page.next();

    await recorded(first.orderId, keysAssigned(first, 'FIRST-KEY'));
    for (const page of firstPages) expect((await page.next()).items[0]?.licenseKeys).toEqual(['FIRST-KEY']);

    // Had the first order's change reached it, this would be the first snapshot it takes.
    await recorded(second.orderId, keysAssigned(second, 'SECOND-KEY'));
    expect(await secondPage.next()).toMatchObject({
      order: { id: second.orderId },
      items: [{ licenseKeys: ['SECOND-KEY'] }],
    });
    for (const page of [...firstPages, secondPage]) page.leave();
  });

  it('listens on one connection however many pages watch, and gives it back when the last leaves', async () => {
    const orders = [await placeOrder(), await placeOrder()];
    const pages = await Promise.all(
      Array.from({ length: 20 }, (_, index) => openOwnStream(orders[index % 2]?.orderId as string)),
    );
    await Promise.all(pages.map((page) => page.next()));
    expect(await listeningConnections(database)).toBe(1);

    for (const page of pages) page.leave();
    await vi.waitFor(async () => expect(await listeningConnections(database)).toBe(0), { timeout: 10_000 });
  });

  it('answers 404 Order not found, not a stream, for an unknown or malformed id', async () => {
    for (const id of [randomUUID(), 'not-an-order']) {
      const response = await fetch(events(id));
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect({ status: response.status, body: await response.json() }).toStrictEqual({
        status: 404,
        body: { error: 'Order not found' },
      });
    }
  });

  it('ends its streams when the server shuts down, so the server closes', async () => {
    const order = await placeOrder();
    const second = await startTestApi({ databaseUrl: api.databaseUrl });
    const stream = await openOwnStream(order.orderId, `${second.url}/api/orders/${order.orderId}/events`);
    await stream.next();
    await second.stop();
    await stream.ended;
  });
});
