import { randomUUID } from 'node:crypto';
import {
  type ProductChanges,
  type ProductFields,
  productDecider,
  productStream,
} from '@licensestore/domain/catalogue';
import { handleCommand } from '@licensestore/domain/commands';
import { NotFoundError, PreconditionFailedError } from '@licensestore/domain/errors';
import {
  type EventStore,
  eventVersions,
  type NewEvent,
  type NewEventMetadata,
  type RecordedEvent,
  versionedEventStore,
  WrongExpectedRevisionError,
} from '@licensestore/domain/events';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/support/database.js';
import { PostgresEventStore } from './postgres.js';
import { migrateEventStore } from './postgres-schema.js';

const metadata: NewEventMetadata = {
  actor: { type: 'admin', id: 'admin-1' },
  correlationId: 'correlation-1',
  causationId: 'causation-1',
};

const fields: ProductFields = {
  name: 'Office Suite',
  description: 'Documents, sheets and slides.',
  imageUrl: '/images/office.png',
  category: 'Productivity',
  platform: 'Windows',
  regularPrice: '99.00',
  salePrice: null,
  featured: false,
  inStock: true,
};
const now = '2026-02-01T09:00:00.000Z';

let store: EventStore;

beforeAll(async () => {
  const pool = new pg.Pool({ connectionString: await createTestDatabase(), max: 10 });
  await migrateEventStore(pool);
  store = versionedEventStore(new PostgresEventStore(pool), eventVersions);
});

afterAll(async () => {
  await store?.close();
});

async function createdProduct() {
  const productId = randomUUID();
  await handleCommand(
    store,
    productStream(productId),
    productDecider,
    { type: 'CreateProduct', productId, fields, now },
    metadata,
  );
  return { productId, stream: productStream(productId) };
}

/** An admin's edit of a product, through `through`: the real store or one a test races. */
const updateProduct = (through: EventStore, productId: string, changes: ProductChanges) =>
  handleCommand(
    through,
    productStream(productId),
    productDecider,
    { type: 'UpdateProduct', productId, changes, now },
    metadata,
  );

async function readStream(stream: string) {
  const events: RecordedEvent[] = [];
  for await (const event of store.readStream(stream)) events.push(event);
  return events;
}

/** The real store, with another writer slipping in after each load and before the command's append. */
function withInterloper(interlope: (attempt: number) => Promise<void>) {
  let attempts = 0;
  const racing: EventStore = {
    append: async (stream, events, expected) => {
      attempts++;
      await interlope(attempts);
      return store.append(stream, events, expected);
    },
    readStream: (stream, from) => store.readStream(stream, from),
    readLastEvent: (stream) => store.readLastEvent(stream),
    readAll: (after, limit) => store.readAll(after, limit),
    readAllOfTypes: (after, limit, types) => store.readAllOfTypes(after, limit, types),
    subscribeAll: (after, signal) => store.subscribeAll(after, signal),
    close: async () => {},
  };
  return { store: racing, attempts: () => attempts };
}

const otherWriter = (stream: string, type: string, data: unknown) =>
  store.append(stream, [{ type, data, metadata } satisfies NewEvent], 'any');

describe('handleCommand', () => {
  describe('when another writer appends between load and append', () => {
    it('decides again on the fresh state and appends after the other write', async () => {
      const { productId, stream } = await createdProduct();
      const racing = withInterloper(async (attempt) => {
        if (attempt === 1)
          await otherWriter(stream, 'ProductUpdated', {
            productId,
            changes: { name: 'Office Suite 2026' },
            updatedAt: now,
          });
      });

      const outcome = await updateProduct(racing.store, productId, { regularPrice: '79.00' });

      expect(racing.attempts()).toBe(2);
      expect(outcome.appended?.nextExpectedRevision).toBe(2n);
      expect(outcome.state).toEqual({
        status: 'active',
        fields: { ...fields, name: 'Office Suite 2026', regularPrice: '79.00' },
      });
      const stored = await readStream(stream);
      expect(stored.map((event) => [event.revision, event.type, event.data])).toEqual([
        [0n, 'ProductCreated', { productId, fields, createdAt: now }],
        [1n, 'ProductUpdated', { productId, changes: { name: 'Office Suite 2026' }, updatedAt: now }],
        [2n, 'ProductUpdated', { productId, changes: { regularPrice: '79.00' }, updatedAt: now }],
      ]);
      expect(stored[2]?.metadata).toEqual({ ...metadata, schemaVersion: 1 });
    });

    it('fails as the fresh state dictates when the product was deleted meanwhile', async () => {
      const { productId, stream } = await createdProduct();
      const racing = withInterloper(async (attempt) => {
        if (attempt === 1) await otherWriter(stream, 'ProductDeleted', { productId, deletedAt: now });
      });

      await expect(updateProduct(racing.store, productId, { regularPrice: '79.00' })).rejects.toThrow(
        NotFoundError,
      );
      expect(racing.attempts()).toBe(1);
      expect((await readStream(stream)).map((event) => event.type)).toEqual([
        'ProductCreated',
        'ProductDeleted',
      ]);
    });

    it('appends nothing when the other write already made the change', async () => {
      const { productId, stream } = await createdProduct();
      const racing = withInterloper(async (attempt) => {
        if (attempt === 1)
          await otherWriter(stream, 'ProductUpdated', {
            productId,
            changes: { featured: true },
            updatedAt: now,
          });
      });

      const outcome = await updateProduct(racing.store, productId, { featured: true });

      expect(outcome).toMatchObject({ events: [], appended: null });
      expect(await readStream(stream)).toHaveLength(2);
    });

    it('gives up with the conflict after five attempts', async () => {
      const { productId, stream } = await createdProduct();
      const racing = withInterloper(async (attempt) => {
        await otherWriter(stream, 'ProductUpdated', {
          productId,
          changes: { name: `Rival ${attempt}` },
          updatedAt: now,
        });
      });

      await expect(updateProduct(racing.store, productId, { regularPrice: '79.00' })).rejects.toThrow(
        WrongExpectedRevisionError,
      );
      expect(racing.attempts()).toBe(5);
      const stored = await readStream(stream);
      expect(stored.map((event) => (event.data as { changes?: { name?: string } }).changes?.name)).toEqual([
        undefined,
        'Rival 1',
        'Rival 2',
        'Rival 3',
        'Rival 4',
        'Rival 5',
      ]);
    });
  });

  describe('when the caller names the revision it decided on (If-Match)', () => {
    const rename = (productId: string) =>
      ({ type: 'UpdateProduct', productId, changes: { name: 'Office Suite Pro' }, now }) as const;

    it('appends with that revision when the stream is still there', async () => {
      const { productId, stream } = await createdProduct();

      const outcome = await handleCommand(store, stream, productDecider, rename(productId), metadata, {
        expectedRevision: 0n,
      });

      expect(outcome.appended?.nextExpectedRevision).toBe(1n);
      expect(await readStream(stream)).toHaveLength(2);
    });

    it('refuses, appending nothing, when the stream has moved on since', async () => {
      const { productId, stream } = await createdProduct();
      await otherWriter(stream, 'ProductUpdated', { productId, changes: { featured: true }, updatedAt: now });

      const refused = handleCommand(store, stream, productDecider, rename(productId), metadata, {
        expectedRevision: 0n,
      });

      await expect(refused).rejects.toThrow(PreconditionFailedError);
      await expect(refused).rejects.toThrow(
        'changed by someone else since you loaded it (revision 0, now 1)',
      );
      expect(await readStream(stream)).toHaveLength(2);
    });

    it('refuses instead of deciding again when another writer appends between load and append', async () => {
      const { productId, stream } = await createdProduct();
      const racing = withInterloper(async () => {
        await otherWriter(stream, 'ProductUpdated', {
          productId,
          changes: { featured: true },
          updatedAt: now,
        });
      });

      await expect(
        handleCommand(racing.store, stream, productDecider, rename(productId), metadata, {
          expectedRevision: 0n,
        }),
      ).rejects.toThrow(PreconditionFailedError);
      expect(racing.attempts()).toBe(1);
      expect((await readStream(stream)).map((event) => event.data)).toEqual([
        { productId, fields, createdAt: now },
        { productId, changes: { featured: true }, updatedAt: now },
      ]);
    });

    it('refuses a revision of a stream that does not exist', async () => {
      const productId = randomUUID();
      await expect(
        handleCommand(store, productStream(productId), productDecider, rename(productId), metadata, {
          expectedRevision: 0n,
        }),
      ).rejects.toThrow('(revision 0, now none)');
    });
  });

  it('does not retry an error that is not a conflict', async () => {
    const { productId, stream } = await createdProduct();
    let attempts = 0;
    const failing: EventStore = {
      ...withInterloper(async () => {}).store,
      append: async () => {
        attempts++;
        throw new Error('connection reset');
      },
    };
    await expect(
      handleCommand(failing, stream, productDecider, { type: 'DeleteProduct', productId, now }, metadata),
    ).rejects.toThrow('connection reset');
    expect(attempts).toBe(1);
  });

  it('lets five concurrent commands on one product all succeed, each on the state the others left', async () => {
    // Each conflict of a command is caused by another command's successful append, so with five commands
    // none needs more than five attempts.
    const { productId, stream } = await createdProduct();
    const names = Array.from({ length: 5 }, (_, i) => `Office Suite edition ${i}`);
    const outcomes = await Promise.all(names.map((name) => updateProduct(store, productId, { name })));
    expect(outcomes.map((outcome) => outcome.appended?.nextExpectedRevision).sort()).toEqual([
      1n,
      2n,
      3n,
      4n,
      5n,
    ]);
    const stored = await readStream(stream);
    expect(stored.map((event) => event.revision)).toEqual([0n, 1n, 2n, 3n, 4n, 5n]);
    expect(
      new Set(stored.slice(1).map((event) => (event.data as { changes: { name: string } }).changes.name)),
    ).toEqual(new Set(names));
  });
});
