import { randomUUID } from 'node:crypto';
import { orderStream, productStream } from '@licensestore/domain';
import type { NewEvent } from '@licensestore/domain/events';
import { appendWith, notifyAppended } from '@licensestore/platform/eventstore';
import { parkedEventsPage } from '@licensestore/platform/parked-events';
import { waitForProjections } from '@licensestore/platform/readmodel';
import { describe, expect, it } from 'vitest';
import { productsProjector } from '../src/products/projector.js';
import { allProjectors } from '../src/projectors.js';
import { rebuildProjector, rebuildProjectors } from '../src/rebuild.js';
import { metadata } from './support/catalogue.js';
import { useRunningReadModel } from './support/harness.js';

const projectors = allProjectors.map((projector) => projector.name);
const PARKED = 'parked an event that does not read; moving past it';

describe('projection runner', () => {
  describe('when the log holds events that no longer read', () => {
    const running = useRunningReadModel();
    const rebuildProducts = () => {
      const { env, log } = running;
      return rebuildProjector({
        db: env.db,
        pool: env.pool,
        store: env.store,
        projector: productsProjector,
        log: log.logger,
      });
    };

    /** Written the way no current writer can: through the bare append, past the checks of the versioned store. */
    const appendRaw = async (stream: string, event: NewEvent) => {
      const { env } = running;
      const appended = await appendWith(env.pool, stream, [event], 'no_stream');
      await notifyAppended(env.pool);
      return appended;
    };

    it('parks each one for every projector, logs it, and keeps applying the events after it', async () => {
      const { env, log } = running;
      const { actor: _lost, ...withoutActor } = metadata;
      const badMetadata = await appendRaw(`product-${randomUUID()}`, {
        id: randomUUID(),
        type: 'ProductDeleted',
        data: { productId: randomUUID(), deletedAt: '2026-03-01T09:00:00.000Z' },
        metadata: { ...withoutActor, schemaVersion: 1 } as NewEvent['metadata'],
      });
      const fromTheFuture = await appendRaw(orderStream(randomUUID()), {
        id: randomUUID(),
        type: 'OrderStatusChanged',
        data: {},
        metadata: { ...metadata, schemaVersion: 9 },
      });
      const productId = randomUUID();
      const badData = await env.store.append(
        productStream(productId),
        [{ type: 'ProductDeleted', data: { productId, deletedAt: 'yesterday' }, metadata }],
        'no_stream',
      );
      const after = randomUUID();
      const good = await env.store.append(
        productStream(after),
        [
          {
            type: 'ProductDeleted',
            data: { productId: after, deletedAt: '2026-03-01T09:00:00.000Z' },
            metadata,
          },
        ],
        'no_stream',
      );

      expect(await waitForProjections(env.pool, good.position, { projectors, timeoutMs: 15_000 })).toBe(true);
      const parked = (await parkedEventsPage(env.db)).events;
      expect(
        parked.map(({ position, type, consumers }) => ({ position, type, consumers: consumers.sort() })),
      ).toEqual([
        { position: badMetadata.position, type: 'ProductDeleted', consumers: [...projectors].sort() },
        { position: fromTheFuture.position, type: 'OrderStatusChanged', consumers: [...projectors].sort() },
        { position: badData.position, type: 'ProductDeleted', consumers: [...projectors].sort() },
      ]);
      expect(parked.map((event) => event.reason)).toEqual([
        expect.stringContaining('metadata.actor'),
        expect.stringContaining('version 9'),
        expect.stringContaining('data.deletedAt'),
      ]);
      expect(log.lines).toContainEqual(
        expect.objectContaining({
          level: 'warn',
          msg: PARKED,
          fields: expect.objectContaining({ position: fromTheFuture.position, projector: 'orders' }),
        }),
      );
    });

    it('parks each one once per consumer however often it meets it: a rebuild passes them again', async () => {
      const { env, log } = running;
      const parkings = () =>
        log.lines.filter((line) => line.msg === PARKED && line.fields.projector === 'products').length;
      const before = (await parkedEventsPage(env.db)).events;
      const parkedBefore = parkings();
      await rebuildProducts();
      expect(parkings()).toBe(parkedBefore + before.length);
      expect((await parkedEventsPage(env.db)).events).toEqual(before);
    });

    it('takes a projector off an event once its rebuild reads it, and the row goes with the last one', async () => {
      const { env, log } = running;
      const productId = randomUUID();
      const broken = await env.store.append(
        productStream(productId),
        [{ type: 'ProductDeleted', data: { productId, deletedAt: 'last week' }, metadata }],
        'no_stream',
      );
      expect(await waitForProjections(env.pool, broken.position, { projectors, timeoutMs: 15_000 })).toBe(
        true,
      );
      const parkedFor = async () =>
        (await parkedEventsPage(env.db)).events
          .find((event) => event.position === broken.position)
          ?.consumers.sort();
      expect(await parkedFor()).toEqual([...projectors].sort());
      const stillBroken = (await parkedEventsPage(env.db)).events.filter(
        (event) => event.position !== broken.position,
      );

      // The fix: here the stored data repaired by hand, standing in for an upcaster or a relaxed schema.
      await env.pool.query(
        `UPDATE event_store.events SET data = jsonb_set(data, '{deletedAt}', '"2026-03-01T09:00:00.000Z"')
          WHERE stream_id = $1`,
        [productStream(productId)],
      );
      await rebuildProducts();
      expect(await parkedFor()).toEqual(projectors.filter((name) => name !== 'products').sort());

      await rebuildProjectors({
        db: env.db,
        pool: env.pool,
        store: env.store,
        projectors: allProjectors,
        log: log.logger,
      });
      expect(await parkedFor()).toBeUndefined();
      // Events that still do not read stay parked for everyone who passed them.
      expect((await parkedEventsPage(env.db)).events).toEqual(stillBroken);
    });
  });
});
