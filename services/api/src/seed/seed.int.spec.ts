import { randomBytes, randomUUID } from 'node:crypto';
import { licenseKeysStream, productStream } from '@licensestore/domain';
import { productDecider } from '@licensestore/domain/catalogue';
import { handleCommand } from '@licensestore/domain/commands';
import { type EventStore, type RecordedEvent, recordedOrThrow } from '@licensestore/domain/events';
import { type DatabaseHandle, openDatabase } from '@licensestore/platform/db';
import { openEventStore } from '@licensestore/platform/eventstore';
import { createKeyVault } from '@licensestore/platform/key-vault';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateReadModel } from '../../../../projections/src/migrations/index.js';
import { createTestDatabase } from '../../../../test/support/database.js';
import { demoProducts } from './catalogue.js';
import { DEMO_KEYS_PER_PRODUCT, demoProductId, seedDemoStore } from './index.js';
import { demoTestimonials } from './testimonials.js';

let store: EventStore;
let database: DatabaseHandle;
const keyVault = createKeyVault(randomBytes(32).toString('base64url'));
const inStock = demoProducts.filter((product) => product.fields.inStock);
/** Events the demo seed appends: a product each, and the keys of each product in stock. */
const seedEventCount = demoProducts.length + inStock.length * DEMO_KEYS_PER_PRODUCT;

beforeEach(async () => {
  const url = await createTestDatabase();
  store = await openEventStore({ databaseUrl: url });
  database = openDatabase(url);
  await migrateReadModel(database.db);
});

afterEach(async () => {
  await Promise.allSettled([store.close(), database.close()]);
});

async function allEvents(): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  for (let batch = await store.readAll(null, 1000); batch.length > 0; ) {
    events.push(...batch.map(recordedOrThrow));
    const last = batch.at(-1);
    batch = last ? await store.readAll(last.position, 1000) : [];
  }
  return events;
}

const testimonialCount = async () =>
  (await database.db.selectFrom('testimonials').select('id').execute()).length;

describe('seedDemoStore', () => {
  describe('on an empty store', () => {
    it('creates every demo product through the command path, as the system seed actor', async () => {
      const result = await seedDemoStore({ store, db: database.db, keyVault });

      expect(result.productsCreated).toBe(demoProducts.length);
      expect(result.lastPosition).not.toBeNull();
      const events = (await allEvents()).filter((e) => e.type === 'ProductCreated');
      expect(events).toHaveLength(demoProducts.length);
      expect(new Set(events.map((e) => e.streamId))).toEqual(
        new Set(demoProducts.map((p) => productStream(demoProductId(p)))),
      );
      for (const event of await allEvents())
        expect(event.metadata.actor).toEqual({ type: 'system', id: 'seed' });
    });

    it('stocks every product in stock with demo license keys, sealed', async () => {
      const result = await seedDemoStore({ store, db: database.db, keyVault });

      expect(result.keysAdded).toBe(inStock.length * DEMO_KEYS_PER_PRODUCT);
      const added = (await allEvents()).filter((e) => e.type === 'LicenceKeyAdded');
      expect(new Set(added.map((e) => e.streamId))).toEqual(
        new Set(inStock.map((p) => licenseKeysStream(demoProductId(p)))),
      );
      const [first] = added;
      if (!first) throw new Error('no key added');
      const key = keyVault.open((first.data as { key: string }).key);
      expect(key).toMatch(/^DEMO(-[A-Z2-9]{5}){4}$/);
    });

    it('inserts the testimonials', async () => {
      const result = await seedDemoStore({ store, db: database.db, keyVault });

      expect(result.testimonialsInserted).toBe(demoTestimonials.length);
      expect(await testimonialCount()).toBe(demoTestimonials.length);
    });
  });

  describe('when run again', () => {
    it('appends nothing and inserts nothing', async () => {
      await seedDemoStore({ store, db: database.db, keyVault });
      const before = await allEvents();

      const again = await seedDemoStore({ store, db: database.db, keyVault });

      expect(again).toEqual({
        productsCreated: 0,
        keysAdded: 0,
        testimonialsInserted: 0,
        lastPosition: null,
      });
      expect(await allEvents()).toHaveLength(before.length);
      expect(await testimonialCount()).toBe(demoTestimonials.length);
    });

    it('does not bring back a demo product an admin deleted', async () => {
      await seedDemoStore({ store, db: database.db, keyVault });
      const [first] = demoProducts;
      if (!first) throw new Error('no demo products');
      const productId = demoProductId(first);
      await handleCommand(
        store,
        productStream(productId),
        productDecider,
        { type: 'DeleteProduct', productId, now: new Date().toISOString() },
        { actor: { type: 'admin', id: 'a' }, correlationId: 'c', causationId: 'c' },
      );

      const again = await seedDemoStore({ store, db: database.db, keyVault });

      expect(again.productsCreated).toBe(0);
    });
  });

  describe('when two processes start at once', () => {
    it('creates each product and each testimonial once', async () => {
      const other = openDatabase((database.pool.options as { connectionString: string }).connectionString);
      try {
        const results = await Promise.all([
          seedDemoStore({ store, db: database.db, keyVault }),
          seedDemoStore({ store, db: other.db, keyVault }),
        ]);

        expect(results.reduce((sum, r) => sum + r.productsCreated, 0)).toBe(demoProducts.length);
        expect(await allEvents()).toHaveLength(seedEventCount);
        expect(await testimonialCount()).toBe(demoTestimonials.length);
      } finally {
        await other.close();
      }
    });
  });

  describe('on a store that already has products of its own', () => {
    it('leaves the catalogue alone but still fills empty testimonials', async () => {
      const productId = randomUUID();
      await handleCommand(
        store,
        productStream(productId),
        productDecider,
        {
          type: 'CreateProduct',
          productId,
          now: new Date().toISOString(),
          fields: {
            name: 'Own product',
            description: 'Sold by this shop',
            imageUrl: '/images/own.png',
            category: 'Other',
            platform: 'Windows',
            regularPrice: '10.00',
            salePrice: null,
            featured: false,
            inStock: true,
          },
        },
        { actor: { type: 'admin', id: 'a' }, correlationId: 'c', causationId: 'c' },
      );

      const result = await seedDemoStore({ store, db: database.db, keyVault });

      expect(result.productsCreated).toBe(0);
      expect(await allEvents()).toHaveLength(1);
      expect(result.testimonialsInserted).toBe(demoTestimonials.length);
    });
  });
});
