import type { EventStore } from '@licensestore/domain/events';
import type { Database } from '@licensestore/platform/db';
import { waitForProjections } from '@licensestore/platform/readmodel';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { allProjectors } from '../src/projectors.js';
import {
  appendInBulk,
  catalogueHistory,
  expectedProducts,
  readProducts,
  takeEvents,
} from './support/catalogue.js';
import {
  expectProductsOfTheLog,
  headPosition,
  readAllEvents,
  recordingLogger,
  startRunner,
  type TestReadModel,
  useTestReadModel,
} from './support/harness.js';

const names = allProjectors.map((projector) => projector.name);
const othersThan = (name: string) => names.filter((other) => other !== name);

/**
 * The event store as the runner sees it, counting how it is read: subscriptions, the events they deliver, and
 * reads of the log outside a subscription (which can be held back until the test releases them).
 */
function countingStore(inner: EventStore) {
  const counts = { subscriptions: 0, subscribedEvents: 0, reads: 0 };
  let release: () => void = () => {};
  let held: Promise<void> = Promise.resolve();
  const store: EventStore = {
    append: (stream, events, expected) => inner.append(stream, events, expected),
    readStream: (stream, fromRevision) => inner.readStream(stream, fromRevision),
    readLastEvent: (stream) => inner.readLastEvent(stream),
    readAll: async (after, limit) => {
      counts.reads++;
      await held;
      return inner.readAll(after, limit);
    },
    readAllOfTypes: (after, limit, types) => inner.readAllOfTypes(after, limit, types),
    subscribeAll: async function* (after, signal) {
      counts.subscriptions++;
      for await (const event of inner.subscribeAll(after, signal)) {
        counts.subscribedEvents++;
        yield event;
      }
    },
    close: () => inner.close(),
  };
  return {
    store,
    counts,
    holdReads: () => {
      held = new Promise((resolve) => {
        release = resolve;
      });
    },
    releaseReads: () => release(),
  };
}

const checkpoints = async (env: TestReadModel) =>
  Object.fromEntries(
    (await env.db.selectFrom('projection_checkpoints').select(['name', 'position']).execute()).map((row) => [
      row.name,
      row.position,
    ]),
  );

const caughtUp = async (env: TestReadModel, projectors: string[]) =>
  waitForProjections(env.pool, await headPosition(env), { projectors, timeoutMs: 20_000 });

describe('one reader for every projector', () => {
  const env = useTestReadModel();
  const history = catalogueHistory({ products: 200, events: 4000, seed: 7 });

  it('reads each event of the log once and hands every batch to every projector', async () => {
    const counting = countingStore(env.store);
    const runner = startRunner({ ...env, store: counting.store, maxBatch: 300 });
    try {
      await appendInBulk(env.pool, takeEvents(history, 2000), { eventsPerTransaction: 50, connections: 2 });
      expect(await caughtUp(env, names)).toBe(true);
    } finally {
      await runner.stop();
    }
    const logLength = (await readAllEvents(env.store)).length;
    expect(counting.counts).toEqual({ subscriptions: 1, subscribedEvents: logLength, reads: 0 });
    for (const name of names) {
      const applied = runner.batches.filter((batch) => batch.projector === name);
      expect(applied.reduce((sum, batch) => sum + batch.events, 0)).toBe(logLength);
      expect(applied.map((batch) => batch.position)).toEqual(
        runner.batches.filter((batch) => batch.projector === 'products').map((batch) => batch.position),
      );
    }
  });

  it('writes each batch for every projector with one commit', async () => {
    let commits = 0;
    const counted = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: env.pool }),
      log: (event) => {
        if (event.level === 'query' && event.query.sql === 'commit') commits++;
      },
    });
    const runner = startRunner({ ...env, db: counted, maxBatch: 300 });
    try {
      await appendInBulk(env.pool, takeEvents(history, 500), { eventsPerTransaction: 50, connections: 1 });
      expect(await caughtUp(env, names)).toBe(true);
    } finally {
      await runner.stop();
    }
    const batches = runner.batches.filter((batch) => batch.projector === 'products').length;
    expect(batches).toBeGreaterThan(0);
    expect(commits).toBe(batches);
  });

  it('lets a projector that is behind catch up on its own while the others keep following', async () => {
    // products as if newly added: no checkpoint, empty table.
    await env.db.deleteFrom('projection_checkpoints').where('name', '=', 'products').execute();
    await env.db.deleteFrom('products').execute();
    const before = await checkpoints(env);
    const counting = countingStore(env.store);
    counting.holdReads();
    const runner = startRunner({ ...env, store: counting.store, maxBatch: 300 });
    try {
      await appendInBulk(env.pool, takeEvents(history, 500), { eventsPerTransaction: 50, connections: 1 });
      expect(await caughtUp(env, othersThan('products'))).toBe(true);
      expect((await checkpoints(env)).products).toBeNull();
      counting.releaseReads();
      expect(await caughtUp(env, ['products'])).toBe(true);
    } finally {
      counting.releaseReads();
      await runner.stop();
    }
    const events = await readAllEvents(env.store);
    expect(await readProducts(env.db)).toEqual(expectedProducts(events));
    expect(counting.counts.subscriptions).toBe(1);
    expect(counting.counts.reads).toBeGreaterThan(0);
    // The others read only what was appended since their checkpoints, once.
    const appended = events.filter((event) => event.position > (before.dashboard as string)).length;
    expect(counting.counts.subscribedEvents).toBe(appended);
    for (const name of othersThan('products')) {
      const applied = runner.batches.filter((batch) => batch.projector === name);
      expect(applied.reduce((sum, batch) => sum + batch.events, 0)).toBe(appended);
    }
  });

  it("keeps each projector's checkpoint exact when one projector's transaction fails", async () => {
    await sql`
      CREATE FUNCTION refuse_write() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'products refuses writes'; END $$`.execute(env.db);
    await sql`CREATE TRIGGER refuse_write BEFORE INSERT OR UPDATE OR DELETE ON products
      FOR EACH STATEMENT EXECUTE FUNCTION refuse_write()`.execute(env.db);
    const before = await checkpoints(env);
    const productsBefore = await readProducts(env.db);
    const log = recordingLogger();
    const runner = startRunner({ ...env, maxBatch: 300, logger: log.logger });
    try {
      await appendInBulk(env.pool, takeEvents(history, 500), { eventsPerTransaction: 50, connections: 1 });
      expect(await caughtUp(env, othersThan('products'))).toBe(true);
      const failed = await log.waitFor('projection failed; retrying from the checkpoint');
      expect(failed.fields.projector).toBe('products');
      // The failed batch wrote nothing, its checkpoint included; the others moved to the head.
      const head = await headPosition(env);
      expect(await checkpoints(env)).toEqual({
        ...Object.fromEntries(names.map((name) => [name, head])),
        products: before.products,
      });
      expect(await readProducts(env.db)).toEqual(productsBefore);

      await sql`DROP TRIGGER refuse_write ON products`.execute(env.db);
      expect(await caughtUp(env, ['products'])).toBe(true);
    } finally {
      await runner.stop();
    }
    const head = await headPosition(env);
    expect(await checkpoints(env)).toEqual(Object.fromEntries(names.map((name) => [name, head])));
    await expectProductsOfTheLog(env);
  });
});
