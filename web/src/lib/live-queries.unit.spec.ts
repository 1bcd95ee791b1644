import { QueryClient, type QueryKey } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { invalidateEveryReadModel, invalidateMoved } from './live-queries';

const KEYS: QueryKey[] = [
  ['/api/admin/dashboard'],
  ['/api/orders'],
  ['/api/orders', '42'],
  ['/api/orders', '42', 'items'],
  ['/api/orders', '42', 'timeline'],
  ['/api/admin/orders', { status: 'paid', cursor: 'abc' }],
  ['/api/admin/orders?q=ada'],
  ['/api/customers'],
  ['/api/admin/customers', 'ada@example.com'],
  ['/api/license-keys'],
  ['/api/license-keys', 'stock'],
  ['/api/license-keys', 'k1', 'history'],
  ['/api/admin/license-keys', { product: 'p1' }],
  ['/api/audit/events', 'type=OrderCaptured'],
  ['/api/products'],
  ['/api/admin/stock-mismatches'],
  ['/api/admin/status'],
  ['/api/admin/ordersummary'],
  ['/api/testimonials'],
];

/** A client holding an answer for every key above; the keys of the queries invalidated after `act`. */
async function invalidatedBy(act: (client: QueryClient) => Promise<void>): Promise<string[]> {
  const client = new QueryClient();
  for (const key of KEYS) client.setQueryData(key, 'answer');
  await act(client);
  return client
    .getQueryCache()
    .getAll()
    .filter((query) => query.state.isInvalidated)
    .map((query) => JSON.stringify(query.queryKey));
}

const named = (...keys: QueryKey[]) => keys.map((key) => JSON.stringify(key));

describe('live query invalidation', () => {
  it("reads again the orders, customers and dashboard when the orders' read model moves", async () => {
    expect(await invalidatedBy((client) => invalidateMoved(client, ['orders']))).toEqual(
      named(
        ['/api/admin/dashboard'],
        ['/api/orders'],
        ['/api/orders', '42'],
        ['/api/orders', '42', 'items'],
        ['/api/orders', '42', 'timeline'],
        ['/api/admin/orders', { status: 'paid', cursor: 'abc' }],
        ['/api/admin/orders?q=ada'],
        ['/api/customers'],
        ['/api/admin/customers', 'ada@example.com'],
      ),
    );
  });

  it('reads again only the dashboard when only its counters move', async () => {
    expect(await invalidatedBy((client) => invalidateMoved(client, ['dashboard']))).toEqual(
      named(['/api/admin/dashboard']),
    );
  });

  it("reads again an order's timeline and the event log, nothing else of the orders, when the audit log moves", async () => {
    expect(await invalidatedBy((client) => invalidateMoved(client, ['audit-log']))).toEqual(
      named(['/api/orders', '42', 'timeline'], ['/api/audit/events', 'type=OrderCaptured']),
    );
  });

  it('reads again the inventory, the low stock on the dashboard and the stock shown wrongly when the keys move', async () => {
    expect(await invalidatedBy((client) => invalidateMoved(client, ['license-keys']))).toEqual(
      named(
        ['/api/admin/dashboard'],
        ['/api/license-keys'],
        ['/api/license-keys', 'stock'],
        ['/api/license-keys', 'k1', 'history'],
        ['/api/admin/license-keys', { product: 'p1' }],
        ['/api/admin/stock-mismatches'],
      ),
    );
  });

  it('reads again the catalogue and the stock shown wrongly when the products move', async () => {
    expect(await invalidatedBy((client) => invalidateMoved(client, ['products']))).toEqual(
      named(['/api/products'], ['/api/admin/stock-mismatches']),
    );
  });

  it('reads again nothing for a projector it does not know', async () => {
    expect(await invalidatedBy((client) => invalidateMoved(client, ['someday']))).toEqual([]);
  });

  it('reads again every read model on a (re)connection, but not who is signed in or the storefront', async () => {
    const invalidated = await invalidatedBy(invalidateEveryReadModel);
    expect(invalidated).not.toContain(JSON.stringify(['/api/admin/status']));
    expect(invalidated).not.toContain(JSON.stringify(['/api/testimonials']));
    expect(invalidated).not.toContain(JSON.stringify(['/api/admin/ordersummary']));
    expect(invalidated).toHaveLength(KEYS.length - 3);
  });
});
