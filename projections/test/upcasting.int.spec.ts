import { orderDecider, orderStream, type PlacedOrder } from '@licensestore/domain';
import { handleCommand, loadStream } from '@licensestore/domain/commands';
import { eventVersions, FutureEventVersionError, type NewEvent } from '@licensestore/domain/events';
import { appendWith, notifyAppended } from '@licensestore/platform/eventstore';
import { waitForProjections } from '@licensestore/platform/readmodel';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allProjectors } from '../src/projectors.js';
import { metadata } from './support/catalogue.js';
import {
  headPosition,
  openTestReadModel,
  recordingLogger,
  startRunner,
  useTestReadModel,
} from './support/harness.js';
import { deliveryHistory, testVault } from './support/license-keys.js';
import {
  appendHistory,
  orderCaptured,
  orderLine,
  readOrderModels,
  readTable,
  type StoreAppend,
  storeHistory,
} from './support/orders.js';

type Env = Awaited<ReturnType<typeof openTestReadModel>>;
type OrderCapturedV2 = ReturnType<typeof orderCaptured>;

/** An OrderCaptured as version 1 wrote it: no capture status, and metadata that says version 1. */
const asVersion1 = ({ type, data }: OrderCapturedV2): NewEvent => {
  const { captureStatus: _notInVersion1, ...v1 } = data;
  return { type, data: v1, metadata: { ...metadata, schemaVersion: 1 } };
};

/**
 * Appends the history through the bare Postgres adapter, beneath the versioned store, the way a log written partly
 * before OrderCaptured v2 looks: every other OrderCaptured in its version 1 shape. Returns how many are version 1.
 */
async function appendWithOldCaptures(env: Env, history: readonly StoreAppend[]): Promise<number> {
  let captures = 0;
  let version1 = 0;
  for (const { stream, expected, events } of history) {
    const stored = events.map((event) => {
      if (event.type === 'OrderCaptured' && captures++ % 2 === 0) {
        version1++;
        return asVersion1(event);
      }
      return eventVersions.stamp({ ...event, metadata });
    });
    await appendWith(env.pool, stream, stored, expected);
  }
  await notifyAppended(env.pool);
  return version1;
}

/** Runs every projector over the whole log; returns what they warned about on the way. */
async function projectAll(env: Env) {
  const head = await headPosition(env);
  const log = recordingLogger();
  const runner = startRunner({ ...env, maxBatch: 50, logger: log.logger });
  try {
    const projectors = allProjectors.map((projector) => projector.name);
    expect(await waitForProjections(env.pool, head, { projectors, timeoutMs: 30_000 })).toBe(true);
  } finally {
    await runner.stop();
  }
  return log.lines.filter((line) => line.level === 'warn' || line.level === 'error');
}

const readModels = async (env: Env): Promise<Record<string, Record<string, unknown>[]>> => ({
  ...(await readOrderModels(env.db)),
  products: await readTable(env.db, 'products', 'id'),
});

describe('Event versions', () => {
  describe('replayed over a log where version 1 and version 2 OrderCaptured events meet', () => {
    let mixed: Env;
    let current: Env;
    const history = [
      ...storeHistory({ seed: 21, products: 8, orders: 160 }),
      ...deliveryHistory({ seed: 22, products: 3, steps: 120, vault: testVault() }),
    ];

    beforeAll(async () => {
      [mixed, current] = await Promise.all([openTestReadModel(), openTestReadModel()]);
    });
    afterAll(async () => {
      await Promise.all([mixed?.close(), current?.close()]);
    });

    it('builds the read models the same history written entirely in version 2 builds', async () => {
      const old = await appendWithOldCaptures(mixed, history);
      await appendHistory(current.store, history);
      const storedVersions = (env: Env) =>
        sql<{ version: string; events: number; withCaptureStatus: number }>`
          SELECT metadata->>'schemaVersion' AS version, count(*)::int AS events,
                 count(*) FILTER (WHERE data ? 'captureStatus')::int AS "withCaptureStatus"
            FROM event_store.events WHERE event_type = 'OrderCaptured'
           GROUP BY 1 ORDER BY 1`.execute(env.db);
      const captures = history
        .flatMap(({ events }) => events)
        .filter((event) => event.type === 'OrderCaptured');
      expect(old).toBeGreaterThan(30);
      expect((await storedVersions(mixed)).rows).toEqual([
        { version: '1', events: old, withCaptureStatus: 0 },
        { version: '2', events: captures.length - old, withCaptureStatus: captures.length - old },
      ]);
      expect((await storedVersions(current)).rows).toEqual([
        { version: '2', events: captures.length, withCaptureStatus: captures.length },
      ]);

      expect(await projectAll(mixed)).toEqual([]);
      expect(await projectAll(current)).toEqual([]);
      const models = await readModels(mixed);
      expect(models.orders?.filter((order) => order.status === 'pending').length).toBeGreaterThan(5);
      expect(models.order_items?.some((item) => (item.license_keys as string[]).length > 0)).toBe(true);
      expect(models).toEqual(await readModels(current));
    });
  });

  describe('deciding on an order stream that starts with a version 1 OrderCaptured', () => {
    const env = useTestReadModel();

    const adasOrder = (status: 'pending' | 'processing') =>
      orderCaptured({
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        lines: [orderLine('Office Suite', 1, '24.99')],
        status,
        capturedAt: '2026-03-01T10:00:00.000Z',
      });
    const storedAsVersion1 = async (status: 'pending' | 'processing') => {
      const captured = adasOrder(status);
      await appendWith(env.pool, orderStream(captured.data.orderId), [asVersion1(captured)], 'no_stream');
      return captured.data;
    };
    const completePayment = ({ orderId, captureId }: { orderId: string; captureId: string }) =>
      handleCommand(
        env.store,
        orderStream(orderId),
        orderDecider,
        { type: 'CompleteOrderPayment', orderId, captureId, now: '2026-03-01T11:00:00.000Z' },
        metadata,
      );

    it('completes the payment of a capture PayPal held, and opens its order for keys', async () => {
      const order = await storedAsVersion1('pending');
      const outcome = await completePayment(order);
      expect(outcome.events.map((event) => event.type)).toEqual(['OrderPaymentCompleted']);
      expect(outcome.state).toMatchObject({ status: 'processing', payment: 'completed' });
    });

    it('finds the payment of a completed capture already taken', async () => {
      const order = await storedAsVersion1('processing');
      const outcome = await completePayment(order);
      expect(outcome.events).toEqual([]);
      expect((outcome.state as PlacedOrder).payment).toBe('completed');
    });

    it('refuses to read an OrderCaptured of a version newer than the code', async () => {
      const captured = adasOrder('processing');
      const stream = orderStream(captured.data.orderId);
      await appendWith(
        env.pool,
        stream,
        [{ ...captured, metadata: { ...metadata, schemaVersion: 3 } }],
        'no_stream',
      );
      await expect(loadStream(env.store, stream, orderDecider)).rejects.toThrow(FutureEventVersionError);
    });
  });
});
