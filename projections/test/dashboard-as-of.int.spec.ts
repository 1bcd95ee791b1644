import { randomBytes } from 'node:crypto';
import type { DashboardAsOfView } from '@licensestore/domain/audit';
import type { RecordedEvent } from '@licensestore/domain/events';
import { createKeyVault } from '@licensestore/platform/key-vault';
import { dashboardAsOf, waitForProjections } from '@licensestore/platform/readmodel';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestReadModel, readAllEvents, recordingLogger, startRunner } from './support/harness.js';
import { deliveryHistory } from './support/license-keys.js';
import { appendHistory, storedStats, storeHistory } from './support/orders.js';

describe('dashboard as of a moment', () => {
  let env: Awaited<ReturnType<typeof openTestReadModel>>;
  let runner: ReturnType<typeof startRunner>;
  let log: RecordedEvent[];
  const { logger } = recordingLogger();
  const asOf = (at: Date, snapshotInterval?: number) =>
    dashboardAsOf({ eventStore: env.store, db: env.db }, at, {
      lowStockThreshold: 3,
      log: logger,
      snapshotInterval,
    });
  const snapshots = async () =>
    (
      await sql<{ events: string }>`SELECT events FROM dashboard_as_of_snapshots ORDER BY position`.execute(
        env.db,
      )
    ).rows.map((row) => Number(row.events));

  beforeAll(async () => {
    env = await openTestReadModel();
    runner = startRunner({ ...env, logger });
    await appendHistory(env.store, storeHistory({ seed: 7, products: 12, orders: 150 }));
    const { position } = await appendHistory(
      env.store,
      deliveryHistory({
        seed: 8,
        products: 4,
        steps: 150,
        vault: createKeyVault(randomBytes(32).toString('base64url')),
      }),
    );
    expect(
      await waitForProjections(env.pool, position, { projectors: ['dashboard'], timeoutMs: 20_000 }),
    ).toBe(true);
    log = await readAllEvents(env.store);
  });
  afterAll(async () => {
    await runner.stop();
    await env.close();
  });

  it('as of the last event, has the counters the dashboard projector keeps', async () => {
    const view = await asOf(log.at(-1)?.createdAt as Date);
    const stats = await storedStats(env.db);
    expect(view.events).toBe(log.length);
    expect({
      product_count: view.totalProducts,
      featured_count: view.featuredProducts,
      order_count: view.totalOrders,
      completed_count: view.completedOrders,
      customer_count: view.totalCustomers,
      revenue: view.totalRevenue,
      available_keys: view.availableKeys,
      assigned_keys: view.assignedKeys,
      orders_awaiting_keys: view.ordersAwaitingKeys,
    }).toEqual(stats);
  });

  it('starting from snapshots, gives what a fold from the start of the log gives, at any moment', async () => {
    const moments = [0.1, 0.35, 0.5, 0.8, 1].map(
      (share) => log[Math.ceil(log.length * share) - 1]?.createdAt as Date,
    );
    const fromStart: DashboardAsOfView[] = [];
    for (const at of moments) fromStart.push(await asOf(at));
    expect(await snapshots()).toEqual([]);

    const interval = Math.floor(log.length / 7);
    for (const at of moments) await asOf(at, interval);
    expect((await snapshots()).length).toBeGreaterThanOrEqual(5);
    for (const [index, at] of moments.entries()) expect(await asOf(at, interval)).toEqual(fromStart[index]);
  });
});
