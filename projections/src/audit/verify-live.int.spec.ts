import { randomUUID } from 'node:crypto';
import { orderStream } from '@licensestore/domain';
import { silentLogger } from '@licensestore/platform/logging';
import { waitForProjections } from '@licensestore/platform/readmodel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metadata } from '../../test/support/catalogue.js';
import { headPosition, openTestReadModel, startRunner } from '../../test/support/harness.js';
import {
  appendHistory,
  appendOrder,
  orderCaptured,
  orderLine,
  statusChanged,
  storeHistory,
} from '../../test/support/orders.js';
import { ordersProjector } from '../orders/projector.js';
import { allProjectors } from '../projectors.js';
import { verifyReadModels } from './verify.js';

type Env = Awaited<ReturnType<typeof openTestReadModel>>;
const PROJECTOR_NAMES = allProjectors.map((projector) => projector.name);

describe('a verification in its comparison', () => {
  let env: Env;
  let runner: ReturnType<typeof startRunner>;

  beforeAll(async () => {
    env = await openTestReadModel();
    await appendHistory(env.store, storeHistory({ seed: 18, products: 4, orders: 40 }));
    runner = startRunner(env);
    const reached = await waitForProjections(env.pool, await headPosition(env), {
      projectors: PROJECTOR_NAMES,
      timeoutMs: 20_000,
    });
    expect(reached).toBe(true);
  });
  afterAll(async () => {
    await runner?.stop();
    await env?.close();
  });

  it('holds back no reader of the log: an order placed meanwhile is projected and its wait completes', async () => {
    const { rows } = await env.pool.query<{ id: string; status: 'pending' }>(
      'SELECT id, status FROM orders ORDER BY id LIMIT 1',
    );
    const changed = rows[0] as { id: string; status: 'pending' };
    let movedTo = '';
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let reachedSecondTable = () => {};
    const held = new Promise<void>((resolve) => {
      reachedSecondTable = resolve;
    });
    const verifying = verifyReadModels({
      db: env.db,
      pool: env.pool,
      store: env.store,
      log: silentLogger,
      projectors: [ordersProjector],
      onProgress: async (progress) => {
        if (progress.phase !== 'comparing') return;
        if (progress.done === 0) {
          // The live model moves past the replay, so the shadow has events to catch up on before comparing.
          const appended = await env.store.append(
            orderStream(changed.id),
            [
              {
                ...statusChanged(changed.id, changed.status, 'completed', new Date().toISOString()),
                metadata,
              },
            ],
            'any',
          );
          movedTo = appended.position;
          const projected = await waitForProjections(env.pool, movedTo, {
            projectors: PROJECTOR_NAMES,
            timeoutMs: 20_000,
          });
          if (!projected) throw new Error('the status change was not projected');
        } else if (progress.done === 1) {
          // Between two tables of one comparison: held here until the test has placed its order.
          reachedSecondTable();
          await released;
        }
      },
    });
    const outcome = verifying.then(
      (report) => ({ report }),
      (error: unknown) => ({ error }),
    );
    try {
      await Promise.race([held, outcome]);
      const orderId = randomUUID();
      const placed = await appendOrder(
        env.store,
        orderId,
        orderCaptured({
          orderId,
          name: 'Placed During Verify',
          email: 'during-verify@example.com',
          lines: [orderLine('Windows 11 Pro', 1, '199.00')],
          capturedAt: new Date().toISOString(),
        }),
      );
      const projected = await waitForProjections(env.pool, placed.position, {
        projectors: PROJECTOR_NAMES,
        timeoutMs: 10_000,
      });
      expect(projected).toBe(true);
      const { rows: seen } = await env.pool.query('SELECT id FROM orders WHERE id = $1', [orderId]);
      expect(seen).toHaveLength(1);
    } finally {
      release();
    }
    const result = await outcome;
    expect(result).toHaveProperty('report');
    const { report } = result as { report: Awaited<typeof verifying> };
    expect(report.passed).toBe(true);
    expect(report.projectors).toEqual([{ name: 'orders', position: movedTo, eventsAfterReplay: 1 }]);
  });
});
