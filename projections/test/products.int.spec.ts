import { randomUUID } from 'node:crypto';
import { productStream } from '@licensestore/domain';
import { waitForProjections } from '@licensestore/platform/readmodel';
import { describe, expect, it } from 'vitest';
import { appendInBulk, catalogueHistory, metadata } from './support/catalogue.js';
import {
  expectProductsOfTheLog,
  headPosition,
  startRunner,
  useRunningReadModel,
  useTestReadModel,
} from './support/harness.js';

const fields = {
  name: 'Microsoft Office 2021 Professional Plus',
  description: 'Genuine license key, delivered by e-mail.',
  imageUrl: '/uploads/products/office-2021.webp',
  category: 'Office',
  platform: 'Windows',
  downloadUrl: 'https://setup.office.com/',
  installationNotes: 'Sign in at setup.office.com.\nEnter your key.',
  regularPrice: '249.99',
  salePrice: '199.00',
  featured: true,
  inStock: true,
};

describe('products projector', () => {
  const { env, log } = useRunningReadModel();
  const visible = (position: string) =>
    waitForProjections(env.pool, position, { projectors: ['products'], timeoutMs: 10_000 });
  const product = (id: string) =>
    env.db.selectFrom('products').selectAll().where('id', '=', id).executeTakeFirst();

  describe('when following the log live', () => {
    it('creates, updates and deletes the row', async () => {
      const id = randomUUID();
      const stream = productStream(id);
      const created = await env.store.append(
        stream,
        [
          {
            type: 'ProductCreated',
            data: { productId: id, fields, createdAt: '2026-03-01T09:00:00.000Z' },
            metadata,
          },
        ],
        'no_stream',
      );
      expect(await visible(created.position)).toBe(true);
      expect(await product(id)).toEqual({
        id,
        name: fields.name,
        description: fields.description,
        image_url: fields.imageUrl,
        category: 'Office',
        platform: 'Windows',
        download_url: 'https://setup.office.com/',
        installation_notes: 'Sign in at setup.office.com.\nEnter your key.',
        // Recorded without a key format: the default one.
        key_format: null,
        regular_price: '249.99',
        sale_price: '199.00',
        featured: true,
        in_stock: true,
        created_at: new Date('2026-03-01T09:00:00.000Z'),
        updated_at: new Date('2026-03-01T09:00:00.000Z'),
      });

      const updated = await env.store.append(
        stream,
        [
          {
            type: 'ProductUpdated',
            data: {
              productId: id,
              changes: { salePrice: null, inStock: false, downloadUrl: null, keyFormat: 'XXXX-XXXX' },
              updatedAt: '2026-03-02T09:00:00.000Z',
            },
            metadata,
          },
        ],
        0n,
      );
      expect(await visible(updated.position)).toBe(true);
      expect(await product(id)).toMatchObject({
        sale_price: null,
        in_stock: false,
        download_url: null,
        installation_notes: 'Sign in at setup.office.com.\nEnter your key.',
        key_format: 'XXXX-XXXX',
        regular_price: '249.99',
        updated_at: new Date('2026-03-02T09:00:00.000Z'),
      });

      const deleted = await env.store.append(
        stream,
        [
          {
            type: 'ProductDeleted',
            data: { productId: id, deletedAt: '2026-03-03T09:00:00.000Z' },
            metadata,
          },
        ],
        1n,
      );
      expect(await visible(deleted.position)).toBe(true);
      expect(await product(id)).toBeUndefined();
    });

    it('skips an event whose data does not parse, logs it, and moves past it', async () => {
      const id = randomUUID();
      const bad = await env.store.append(
        productStream(id),
        [{ type: 'ProductCreated', data: { productId: id, fields: { name: '' } }, metadata }],
        'no_stream',
      );
      const good = randomUUID();
      const next = await env.store.append(
        productStream(good),
        [
          {
            type: 'ProductCreated',
            data: { productId: good, fields, createdAt: '2026-03-04T09:00:00.000Z' },
            metadata,
          },
        ],
        'no_stream',
      );
      expect(await visible(next.position)).toBe(true);
      expect(await product(id)).toBeUndefined();
      expect(await product(good)).toBeDefined();
      expect(log.lines).toContainEqual(
        expect.objectContaining({
          level: 'warn',
          fields: expect.objectContaining({ position: bad.position }),
        }),
      );
    });

    it('ignores events of other streams but still moves its checkpoint past them', async () => {
      const other = await env.store.append(
        `order-${randomUUID()}`,
        [{ type: 'OrderCaptured', data: { orderId: 'x' }, metadata }],
        'no_stream',
      );
      expect(await visible(other.position)).toBe(true);
    });
  });
});

describe('products projector catching up', () => {
  const env = useTestReadModel();

  it('applies a long backlog in few transactions and ends with exactly the folded rows', async () => {
    const appended = await appendInBulk(
      env.pool,
      catalogueHistory({ products: 1500, events: 15_000, seed: 7 }),
    );
    expect(appended).toBe(15_000);
    const head = await headPosition(env);

    const runner = startRunner({ ...env, maxBatch: 5000 });
    try {
      expect(await waitForProjections(env.pool, head, { projectors: ['products'], timeoutMs: 20_000 })).toBe(
        true,
      );
    } finally {
      await runner.stop();
    }

    const batches = runner.batches.filter((batch) => batch.projector === 'products');
    expect(batches.reduce((sum, batch) => sum + batch.events, 0)).toBe(15_000);
    // The subscription reads pages of 1,000; the writer takes everything buffered, up to 5,000, per transaction.
    expect(batches.length).toBeLessThanOrEqual(15);
    expect(Math.max(...batches.map((batch) => batch.events))).toBeGreaterThan(1000);
    await expectProductsOfTheLog(env);
  });
});
