import { randomUUID } from 'node:crypto';
import { inventoryDecider, licenseKeysStream, soldTo } from '@licensestore/domain';
import { loadStream } from '@licensestore/domain/commands';
import type { EventStore } from '@licensestore/domain/events';
import { silentLogger } from '@licensestore/platform/logging';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runJob, testSideEffects, workersTestEnvironment } from '../testing/fixtures.js';
import { latch } from '../testing/latch.js';
import { addKeys, createProduct, placeOrder, setOrderStatus } from '../testing/store.js';
import { assignKeys, assignKeysJob } from './assign-keys.js';
import { createProcessorContext } from './context.js';
import { releaseKeys, releaseKeysJob } from './release-keys.js';

/** The event store, with every append to `stream` held until `open()`: a job that decided, then paused. */
function holdingAppends(eventStore: EventStore, stream: string) {
  const { open, opened: gate } = latch();
  let held = false;
  const store = new Proxy(eventStore, {
    get(target, property, receiver) {
      if (property !== 'append') return Reflect.get(target, property, receiver);
      return async (...args: Parameters<EventStore['append']>) => {
        if (args[0] === stream) {
          held = true;
          await gate;
        }
        return target.append(...args);
      };
    },
  });
  return { store, open, isHolding: () => held };
}

describe('Releasing the keys of a cancelled order', () => {
  let env: Awaited<ReturnType<typeof workersTestEnvironment>>;
  const cause = { eventId: randomUUID(), correlationId: 'test' };

  beforeEach(async () => {
    env = await workersTestEnvironment();
  });
  afterEach(() => env?.close());

  it('a release decided before an admin reopened the order leaves the reopened order in line for its keys', async () => {
    const settings = testSideEffects();
    const context = createProcessorContext(settings, env.eventStore, silentLogger);
    const productId = await createProduct(env.eventStore, 'Office 2021', 'Microsoft Office');
    // No stock: the paid order waits in line.
    const orderId = await placeOrder(env.eventStore, [{ productId, quantity: 1 }]);
    await runJob(env, assignKeys(context), assignKeysJob(orderId, cause));
    await setOrderStatus(env.eventStore, orderId, 'cancelled');

    // The cancel's release reads the cancelled order, then pauses before its inventory append.
    const held = holdingAppends(env.eventStore, licenseKeysStream(productId));
    const slowContext = createProcessorContext(settings, held.store, silentLogger);
    const releasing = runJob(env, releaseKeys(slowContext), releaseKeysJob(orderId, cause));
    await vi.waitFor(() => expect(held.isHolding()).toBe(true));
    // Meanwhile an admin reopens it, and it asks for its key again.
    await setOrderStatus(env.eventStore, orderId, 'completed');
    await runJob(env, assignKeys(context), assignKeysJob(orderId, cause));
    held.open();
    await releasing;

    await addKeys(env.eventStore, settings.keyVault, productId, 1);
    const { state: inventory } = await loadStream(
      env.eventStore,
      licenseKeysStream(productId),
      inventoryDecider,
    );
    const given = [...inventory.sold.values()].filter((key) => soldTo(key).orderId === orderId);
    expect(given).toHaveLength(1);
    expect(inventory.waiting.size).toBe(0);
  });
});
