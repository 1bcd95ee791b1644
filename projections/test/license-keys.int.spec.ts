import { randomUUID } from 'node:crypto';
import { licenseKeysStream } from '@licensestore/domain';
import { silentLogger } from '@licensestore/platform/logging';
import { waitForProjections } from '@licensestore/platform/readmodel';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { licenseKeysProjector } from '../src/license-keys/projector.js';
import { rebuildProjector } from '../src/rebuild.js';
import { metadata } from './support/catalogue.js';
import { readAllEvents, useRunningReadModel } from './support/harness.js';
import { assignmentsIn, inventoryOf, newKeys, testVault } from './support/license-keys.js';
import { readTable } from './support/orders.js';

describe('license-keys projector', () => {
  const model = useRunningReadModel();
  const vault = testVault();
  let last = '';
  const visible = async (outcome: { position: string | null }) => {
    const position = outcome.position as string;
    if (position > last) last = position;
    expect(
      await waitForProjections(model.env.pool, position, { projectors: ['license-keys'], timeoutMs: 10_000 }),
    ).toBe(true);
  };
  const keysOf = (productId: string) =>
    model.env.db
      .selectFrom('license_keys')
      .selectAll()
      .where('product_id', '=', productId)
      .orderBy('added_at')
      .orderBy('id')
      .execute();
  const stockOf = (productId: string) =>
    model.env.db
      .selectFrom('license_key_stock')
      .select(['available', 'assigned', 'waiting', 'updated_at'])
      .where('product_id', '=', productId)
      .executeTakeFirst();
  /** Available and assigned as counted over the keys: what the stock counters must always equal. */
  const countedStock = async (productId: string) => {
    const { rows } = await sql<{ available: number; assigned: number }>`
      SELECT count(*) FILTER (WHERE status = 'available')::int AS available,
             count(*) FILTER (WHERE status = 'assigned')::int AS assigned
        FROM license_keys WHERE product_id = ${productId}`.execute(model.env.db);
    return rows[0];
  };
  /** Keys added together come back in id order. */
  const byId = (a: { keyId: string }, b: { keyId: string }) => (a.keyId < b.keyId ? -1 : 1);
  const at = (minute: number) => new Date(Date.UTC(2026, 5, 1, 9, minute)).toISOString();

  describe('when keys are added and one is removed', () => {
    it('lists each key sealed and available, deletes the removed one, and counts the stock', async () => {
      const productId = randomUUID();
      const inventory = inventoryOf(model.env.store, productId);
      const keys = newKeys(vault, 3).sort(byId);
      await visible(await inventory.add(keys, at(0)));

      const rows = await keysOf(productId);
      expect(rows).toEqual(
        keys.map((key) => ({
          id: key.keyId,
          product_id: productId,
          key_sealed: key.key,
          fingerprint: vault.fingerprint(key.text),
          // Added without the hash of its last characters, as keys were before it was recorded.
          tail_hash: null,
          status: 'available',
          order_id: null,
          line_id: null,
          added_at: new Date(at(0)),
          assigned_at: null,
          returned_from: null,
        })),
      );
      expect(rows.map((row) => vault.open(row.key_sealed))).toEqual(keys.map((key) => key.text));
      expect(await stockOf(productId)).toEqual({
        available: 3,
        assigned: 0,
        waiting: 0,
        updated_at: new Date(at(0)),
      });

      const [removed, ...kept] = keys;
      await visible(await inventory.remove(removed?.keyId as string, at(1)));
      expect((await keysOf(productId)).map((row) => row.id)).toEqual(kept.map((key) => key.keyId));
      expect(await stockOf(productId)).toEqual({
        available: 2,
        assigned: 0,
        waiting: 0,
        updated_at: new Date(at(1)),
      });
    });
  });

  describe('when paid lines wait for keys that arrive in two deliveries', () => {
    it('serves the oldest line first, over two assignments, and moves available, assigned and waiting', async () => {
      const productId = randomUUID();
      const inventory = inventoryOf(model.env.store, productId);
      const [first, second] = [randomUUID(), randomUUID()];
      await inventory.request(first, 'line-1', 3, at(10));
      await visible(await inventory.request(second, 'line-1', 1, at(11)));
      expect(await stockOf(productId)).toMatchObject({ available: 0, assigned: 0, waiting: 4 });
      expect(await keysOf(productId)).toEqual([]);

      const delivery = newKeys(vault, 2).sort(byId);
      const served = await inventory.add(delivery, at(12));
      expect(assignmentsIn(served.events).map(({ orderId, keys }) => [orderId, keys.length])).toEqual([
        [first, 2],
      ]);
      await visible(served);
      expect(await keysOf(productId)).toEqual(
        delivery.map((key) =>
          expect.objectContaining({
            id: key.keyId,
            status: 'assigned',
            order_id: first,
            line_id: 'line-1',
            added_at: new Date(at(12)),
            assigned_at: new Date(at(12)),
          }),
        ),
      );
      expect(await stockOf(productId)).toMatchObject({ available: 0, assigned: 2, waiting: 2 });

      const next = newKeys(vault, 3);
      const rest = await inventory.add(next, at(13));
      expect(assignmentsIn(rest.events).map(({ orderId, keys }) => [orderId, keys.length])).toEqual([
        [first, 1],
        [second, 1],
      ]);
      await visible(rest);
      const rows = await keysOf(productId);
      expect(rows.filter((row) => row.order_id === first).map((row) => row.id)).toEqual([
        ...delivery.map((key) => key.keyId),
        next[0]?.keyId,
      ]);
      expect(rows.filter((row) => row.order_id === second)).toEqual([
        expect.objectContaining({ id: next[1]?.keyId, line_id: 'line-1', assigned_at: new Date(at(13)) }),
      ]);
      expect(rows.filter((row) => row.status === 'available').map((row) => row.id)).toEqual([next[2]?.keyId]);
      expect(await stockOf(productId)).toEqual({
        available: 1,
        assigned: 4,
        waiting: 0,
        updated_at: new Date(at(13)),
      });
      expect(await stockOf(productId)).toMatchObject((await countedStock(productId)) ?? {});
    });
  });

  describe('when an inventory event does not parse', () => {
    it('skips it, logs it, and moves past it', async () => {
      const [productId, broken] = [randomUUID(), randomUUID()];
      const bad = await model.env.store.append(
        licenseKeysStream(broken),
        [{ type: 'LicenceKeyAdded', data: { productId: broken, keyId: 'nope' }, metadata }],
        'no_stream',
      );
      await visible(await inventoryOf(model.env.store, productId).add(newKeys(vault, 1), at(20)));
      expect(await stockOf(productId)).toMatchObject({ available: 1 });
      expect(await stockOf(broken)).toBeUndefined();
      expect(model.log.lines).toContainEqual(
        expect.objectContaining({
          level: 'warn',
          fields: expect.objectContaining({ projector: 'license-keys', position: bad.position }),
        }),
      );
    });
  });

  describe('when rebuilt from the whole log, or applied in one batch', () => {
    it('gives the same tables as the live projection', async () => {
      const tables = async (schema = 'public') => ({
        keys: await readTable(model.env.db, 'license_keys', 'id', schema),
        stock: await readTable(model.env.db, 'license_key_stock', 'product_id', schema),
      });
      expect(
        await waitForProjections(model.env.pool, last, { projectors: ['license-keys'], timeoutMs: 10_000 }),
      ).toBe(true);
      const live = await tables();
      expect(live.keys.length).toBeGreaterThan(5);
      expect(live.stock.length).toBe(3);

      const schema = 'oneshot_license_keys';
      await sql`CREATE SCHEMA ${sql.id(schema)}`.execute(model.env.db);
      await licenseKeysProjector.createTables(model.env.db, schema);
      const logged = await readAllEvents(model.env.store);
      await model.env.db
        .transaction()
        .execute((trx) => licenseKeysProjector.apply(trx, logged, { schema, log: silentLogger }));
      expect(await tables(schema)).toEqual(live);
      await sql`DROP SCHEMA ${sql.id(schema)} CASCADE`.execute(model.env.db);

      const rebuilt = await rebuildProjector({
        db: model.env.db,
        pool: model.env.pool,
        store: model.env.store,
        projector: licenseKeysProjector,
        log: silentLogger,
        batchSize: 2,
      });
      expect(rebuilt?.events).toBe(logged.length);
      expect(await tables()).toEqual(live);
    });
  });
});
