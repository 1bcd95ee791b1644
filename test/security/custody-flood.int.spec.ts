import { randomUUID } from 'node:crypto';
import {
  licenseKeysStream,
  type OrderItemView,
  orderCustodyStream,
  orderDecider,
  orderStream,
} from '@licensestore/domain';
import { loadStream } from '@licensestore/domain/commands';
import type { KeyHistoryView } from '@licensestore/domain/key-history';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CUSTODY_WINDOW_MS } from '../../services/api/src/orders/custody.js';
import { KEY_READ_LIMIT } from '../../services/api/src/orders/key-read-throttle.js';
import {
  type ApiWithReadModel,
  startApiWithReadModel,
} from '../../services/api/test/support/api-with-read-model.js';
import { deliverKeys, readEvents } from '../../services/api/test/support/checkout.js';
import { type Purchase, purchase } from '../../services/api/test/support/purchase.js';
import { releaseOrderKeys } from '../../workers/src/processors/order-keys.js';
import { testRedisUrl } from '../support/database.js';

const CUSTOMER = 'ada@example.com';

interface Revealed {
  keyIds: string[];
  channel: string;
  viewer: { type: string; id: string | null };
  clientHash: string;
  revealedAt: string;
}

/**
 * Reading one's own keys again and again. Each showing in clear is recorded, but a reader who reloads a page all
 * day must not grow the order's history, make an admin's If-Match stale, or slow the pages that read that
 * history: one record per reader, order, door and keys an hour, kept off the order's stream, and reads throttled
 * per client address.
 */
describe('Key custody under a flood of reads', () => {
  let store: ApiWithReadModel;
  let order: Purchase;
  let admin: string;
  let customer: string;
  let keyId: string;
  let productId: string;

  /** A request from `address` (the api trusts the loopback proxy's X-Forwarded-For, as behind a real proxy). */
  const read = (path: string, cookie: string, address: string) =>
    fetch(`${store.api.url}${path}`, { headers: { cookie, 'x-forwarded-for': address } });
  const itemsFrom = (address: string) =>
    read(`/api/orders/${order.orderId}/items`, order.orderCookie, address);
  /** Every showing recorded for the order, wherever it is kept. */
  const showings = async (): Promise<Revealed[]> =>
    [
      ...(await readEvents(store.eventStore, orderStream(order.orderId))),
      ...(await readEvents(store.eventStore, orderCustodyStream(order.orderId))),
    ]
      .filter((event) => event.type === 'LicenceKeysRevealed')
      .map((event) => event.data as Revealed);
  /** What may be recorded once an hour: the reader (viewer and address), the door, the keys, and the hour. */
  const showingInHour = (each: Revealed) =>
    `${each.channel} ${JSON.stringify(each.viewer)} ${each.clientHash} ${each.keyIds.join()} ` +
    Math.floor(Date.parse(each.revealedAt) / CUSTODY_WINDOW_MS);
  const adminOrder = () => read(`/api/orders/${order.orderId}`, admin, '198.51.100.1');

  beforeAll(async () => {
    store = await startApiWithReadModel({ env: { TRUST_PROXY: 'loopback' } });
    admin = await store.api.sessionCookie({ kind: 'admin', subjectId: randomUUID() });
    customer = await store.api.sessionCookie({ kind: 'customer', subjectId: CUSTOMER });
    productId = await store.productWithKeys(1);
    order = await purchase(store.api.url, productId, {
      customerName: 'Ada Lovelace',
      customerEmail: CUSTOMER,
    });
    const [assigned] = await deliverKeys(store.eventStore, store.database, order.orderId);
    keyId = assigned?.keyId as string;
  });
  afterAll(async () => {
    await store?.stop();
  });

  it("leaves the order's revision alone: an admin's If-Match taken before 60 reads still holds", async () => {
    const before = await adminOrder();
    const etag = before.headers.get('etag');
    expect(etag).toMatch(/^"\d+"$/);

    // Twenty at once (a burst races itself), then forty one after another, then My Orders.
    const burst = await Promise.all(Array.from({ length: 20 }, () => itemsFrom('203.0.113.7')));
    expect(burst.map((response) => response.status)).toEqual(Array(20).fill(200));
    for (let index = 0; index < 40; index++) expect((await itemsFrom('203.0.113.7')).status).toBe(200);
    for (let index = 0; index < 10; index++)
      expect((await read('/api/my-orders', customer, '203.0.113.7')).status).toBe(200);

    expect((await adminOrder()).headers.get('etag')).toBe(etag);
    const edited = await fetch(`${store.api.url}/api/orders/${order.orderId}/status`, {
      method: 'PATCH',
      headers: { cookie: admin, 'content-type': 'application/json', 'if-match': etag as string },
      body: JSON.stringify({ status: 'pending' }),
    });
    expect(edited.status).toBe(200);
    expect(
      (await readEvents(store.eventStore, orderStream(order.orderId))).filter(
        (event) => event.type === 'LicenceKeysRevealed',
      ),
    ).toEqual([]);
  });

  it('records one showing per reader, door and keys within the hour, and each distinct reader', async () => {
    const [itemsShown] = (await (await itemsFrom('203.0.113.8')).json()) as OrderItemView[];
    expect(itemsShown?.licenseKeys).toHaveLength(1);
    expect((await itemsFrom('203.0.113.8')).status).toBe(200);

    const recorded = await showings();
    // One record per reader, door and keys in each clock hour (a run that crosses an hour may hold two).
    expect(new Set(recorded.map(showingInHour)).size).toBe(recorded.length);
    // Each distinct reader is there: two addresses through the confirmation page, the customer through My Orders.
    const readers = new Set(recorded.map((each) => `${each.channel} ${each.clientHash}`));
    expect(readers.size).toBe(3);
    expect(new Set(recorded.map((each) => each.channel))).toEqual(
      new Set(['confirmation-page', 'my-orders']),
    );
    expect(recorded.every((each) => each.keyIds.join() === keyId)).toBe(true);
    expect(recorded.length).toBeLessThanOrEqual(6);

    // The key's history (where a dispute looks) and the order's timeline have each record.
    await vi.waitFor(
      async () => {
        const response = await read(`/api/license-keys/${keyId}/history`, admin, '198.51.100.1');
        const history = (await response.json()) as KeyHistoryView;
        expect(history.entries.filter((entry) => entry.kind === 'revealed')).toHaveLength(recorded.length);
      },
      { timeout: 10_000, interval: 100 },
    );
    const timeline = (await (
      await read(`/api/orders/${order.orderId}/timeline`, admin, '198.51.100.1')
    ).json()) as Array<{ type: string }>;
    expect(timeline.filter((entry) => entry.type === 'LicenceKeysRevealed')).toHaveLength(recorded.length);
  });

  it('stores no second record when Redis has forgotten the recorded ones (flushed, restarted)', async () => {
    const before = await showings();
    const redis = new Redis(testRedisUrl());
    try {
      const memos = await redis.keys(`${store.api.redisKeyPrefix}key-custody:*`);
      expect(memos.length).toBeGreaterThan(0);
      await redis.del(...memos);
    } finally {
      await redis.quit();
    }
    // A burst again: without the memo, the event store alone refuses the repeats, however they race.
    const burst = await Promise.all(Array.from({ length: 10 }, () => itemsFrom('203.0.113.8')));
    expect(burst.map((response) => response.status)).toEqual(Array(10).fill(200));
    expect((await read('/api/my-orders', customer, '203.0.113.8')).status).toBe(200);
    const after = await showings();
    expect(after.slice(0, before.length)).toEqual(before);
    expect(new Set(after.map(showingInHour)).size).toBe(after.length);
    // My Orders from this address is a reader not seen before: recorded.
    expect(after.slice(before.length).map((each) => each.channel)).toContain('my-orders');
  });

  it('counts a key shown only through the custody stream as out of the store: giving it back revokes it', async () => {
    const response = await read(`/api/orders/${order.orderId}/refundable-units`, admin, '198.51.100.1');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([expect.objectContaining({ keyId, leftStore: true })]);

    // The job that gives a cancelled order's keys back revokes it rather than returning it to stock.
    const { state } = await loadStream(store.eventStore, orderStream(order.orderId), orderDecider);
    if (state.status === 'absent') throw new Error('no such order');
    const cause = { eventId: randomUUID(), correlationId: randomUUID() };
    await releaseOrderKeys(
      { eventStore: store.eventStore, lowStockThreshold: 0 },
      { ...state, status: 'cancelled' },
      cause,
    );
    const released = (await readEvents(store.eventStore, licenseKeysStream(productId))).filter(
      (event) => (event.data as { keyId?: string }).keyId === keyId,
    );
    expect(released.map((event) => event.type)).toContain('LicenceKeyRevoked');
    expect(released.map((event) => event.type)).not.toContain('LicenceKeyReturned');
  });

  it('answers 429 with Retry-After and a sentence once a client reads too often, on every key-reading route', async () => {
    const address = '203.0.113.9';
    const answers = await Promise.all(
      Array.from({ length: KEY_READ_LIMIT.perClient }, () => itemsFrom(address)),
    );
    expect(answers.every((response) => response.status === 200)).toBe(true);
    for (const path of [
      `/api/orders/${order.orderId}/items`,
      `/api/orders/${order.orderId}/events`,
      '/api/my-orders',
    ]) {
      const refused = await read(path, path === '/api/my-orders' ? customer : order.orderCookie, address);
      expect({ path, status: refused.status }).toEqual({ path, status: 429 });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(((await refused.json()) as { error: string }).error).toMatch(
        /^Too many requests for license keys came from your connection in a short time\. Please wait \d+ seconds? and try again\.$/,
      );
    }
    // Another client is not held back by this one.
    expect((await itemsFrom('203.0.113.10')).status).toBe(200);
  });
});
