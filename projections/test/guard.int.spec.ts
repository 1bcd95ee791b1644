import { randomUUID } from 'node:crypto';
import { productStream } from '@licensestore/domain';
import { openEventStore } from '@licensestore/platform/eventstore';
import { waitForProjections } from '@licensestore/platform/readmodel';
import { describe, expect, it } from 'vitest';
import { productsProjector } from '../src/products/projector.js';
import { applyBatch } from '../src/runner.js';
import { appendInBulk, catalogueHistory, metadata, readProducts } from './support/catalogue.js';
import {
  expectProductsOfTheLog,
  headPosition,
  readAllEvents,
  recordingLogger,
  startRunner,
  useTestReadModel,
} from './support/harness.js';
import { productCreated, productFields } from './support/orders.js';

describe('the guarded checkpoint', () => {
  const env = useTestReadModel();

  it('refuses a batch whose starting checkpoint is no longer the stored one, writing nothing', async () => {
    const log = recordingLogger().logger;
    const id = randomUUID();
    await env.store.append(
      productStream(id),
      [{ ...productCreated(id, productFields(), '2026-02-01T00:00:00.000Z'), metadata }],
      'no_stream',
    );
    const events = await readAllEvents(env.store);
    const to = events.at(-1)?.position as string;
    await env.db
      .insertInto('projection_checkpoints')
      .values({ name: 'products', position: to, version: productsProjector.version, updated_at: new Date() })
      .execute();

    expect(await applyBatch(env.db, productsProjector, events, null, to, log)).toBe(false);
    expect(await readProducts(env.db)).toEqual([]);
    expect(await applyBatch(env.db, productsProjector, events, to, to, log)).toBe(true);
    expect(await readProducts(env.db)).toHaveLength(1);
  });

  describe('when two runners project the same log side by side', () => {
    it('applies every event exactly once between them', async () => {
      await env.db.deleteFrom('projection_checkpoints').execute();
      await env.db.deleteFrom('products').execute();
      // Each runner with an event store of its own, as two instances have: a subscription holds a connection of
      // its store's pool while it follows, and two runners' worth on one pool would leave their reads none.
      const otherStore = await openEventStore({ databaseUrl: env.url });
      const [a, b] = [
        startRunner({ ...env, maxBatch: 200 }),
        startRunner({ ...env, store: otherStore, maxBatch: 200 }),
      ];
      const before = (await readAllEvents(env.store)).length;
      try {
        await appendInBulk(env.pool, catalogueHistory({ products: 300, events: 6000, seed: 5 }), {
          eventsPerTransaction: 100,
          connections: 2,
        });
        const head = await headPosition(env);
        expect(
          await waitForProjections(env.pool, head, { projectors: ['products'], timeoutMs: 20_000 }),
        ).toBe(true);
      } finally {
        await Promise.all([a.stop(), b.stop()]);
        await otherStore.close();
      }
      const applied = [...a.batches, ...b.batches]
        .filter((batch) => batch.projector === 'products')
        .reduce((sum, batch) => sum + batch.events, 0);
      expect(applied).toBe(before + 6000);
      await expectProductsOfTheLog(env);
    });
  });
});
