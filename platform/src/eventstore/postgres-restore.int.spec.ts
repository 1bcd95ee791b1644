import { randomUUID } from 'node:crypto';
import { type NewEvent, type RecordedEvent, recordedOrThrow } from '@licensestore/domain/events';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/support/database.js';
import { decodePosition } from './position.js';
import { appendWith, PostgresEventStore } from './postgres.js';
import { type RestoredEvent, writeRestoredEvents } from './postgres-restore.js';
import { migrateEventStore } from './postgres-schema.js';

const event = (n: number): NewEvent => ({
  id: randomUUID(),
  type: 'Probed',
  data: { n },
  metadata: { actor: { type: 'system', id: 'test' }, correlationId: 'c', causationId: 'c', schemaVersion: 1 },
});

async function readWhole(store: PostgresEventStore): Promise<RecordedEvent[]> {
  return (await store.readAll(null, 1000)).map(recordedOrThrow);
}

describe('Writing a backed-up log into an empty Postgres event store', () => {
  let source: PostgresEventStore;
  let sourcePool: pg.Pool;
  let target: PostgresEventStore;
  let targetPool: pg.Pool;

  beforeAll(async () => {
    sourcePool = new pg.Pool({ connectionString: await createTestDatabase() });
    targetPool = new pg.Pool({ connectionString: await createTestDatabase() });
    await migrateEventStore(sourcePool);
    await migrateEventStore(targetPool);
    source = new PostgresEventStore(sourcePool);
    target = new PostgresEventStore(targetPool);
  });
  afterAll(async () => {
    await source?.close();
    await target?.close();
  });

  it('keeps the order, positions and recorded times, where a lower position was committed after a higher one', async () => {
    await source.append(`probe-${randomUUID()}`, [event(1), event(2)], 'no_stream');
    // A takes its transaction id first, B appends and commits, then A appends: A's event comes first in the log
    // (it is ordered by transaction), though its position is higher than B's.
    const a = await sourcePool.connect();
    try {
      await a.query('BEGIN');
      await a.query('SELECT pg_current_xact_id()');
      await source.append(`probe-${randomUUID()}`, [event(3)], 'no_stream');
      await appendWith(a, `probe-${randomUUID()}`, [event(4)], 'no_stream');
      await a.query('COMMIT');
    } finally {
      a.release();
    }
    await source.append(`probe-${randomUUID()}`, [event(5)], 'no_stream');
    const original = await readWhole(source);
    const positions = original.map((recorded) => decodePosition(recorded.position)[1]);
    expect(positions).toEqual([1n, 2n, 4n, 3n, 5n]);

    async function* restored() {
      for (const recorded of original) {
        yield { ...recorded, globalPosition: decodePosition(recorded.position)[1] };
      }
    }
    expect(await writeRestoredEvents(targetPool, restored())).toBe(5);

    const copy = await readWhole(target);
    const facts = (recorded: RecordedEvent) => ({
      id: recorded.id,
      streamId: recorded.streamId,
      revision: recorded.revision,
      type: recorded.type,
      data: recorded.data,
      metadata: recorded.metadata,
      createdAt: recorded.createdAt,
      globalPosition: decodePosition(recorded.position)[1],
    });
    expect(copy.map(facts)).toEqual(original.map(facts));

    // The next append takes a position after every restored one, and comes after them in the log.
    const next = await target.append(`probe-${randomUUID()}`, [event(6)], 'no_stream');
    expect(decodePosition(next.position)[1]).toBe(6n);
    expect((await readWhole(target)).at(-1)?.position).toBe(next.position);
  });

  describe('into a log of its own', () => {
    let pool: pg.Pool;
    let store: PostgresEventStore;

    beforeAll(async () => {
      pool = new pg.Pool({ connectionString: await createTestDatabase() });
      await migrateEventStore(pool);
      store = new PostgresEventStore(pool);
    });
    afterAll(() => store?.close());

    const restoredEvent = (n: number, data: unknown = { n }): RestoredEvent => ({
      ...event(n),
      id: randomUUID(),
      data,
      streamId: `probe-${n}`,
      revision: 0n,
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, n)),
      globalPosition: null,
    });
    async function* from<T>(items: T[], thenThrow?: Error) {
      yield* items;
      if (thenThrow) throw thenThrow;
    }
    const count = async () =>
      Number((await pool.query('SELECT count(*) FROM event_store.events')).rows[0].count);

    it('writes nothing of a transaction whose source fails after rows went to the server', async () => {
      const failure = new Error('the backup broke off');
      const events = Array.from({ length: 2500 }, (_, n) => restoredEvent(n + 1));
      await expect(writeRestoredEvents(pool, from(events, failure))).rejects.toBe(failure);
      expect(await count()).toBe(0);
    });

    it('refuses an event the log already holds, writing nothing of its transaction', async () => {
      const twice = restoredEvent(1);
      const events = [twice, ...Array.from({ length: 1500 }, (_, n) => restoredEvent(n + 2)), { ...twice }];
      await expect(writeRestoredEvents(pool, from(events))).rejects.toThrow(/duplicate key/);
      expect(await count()).toBe(0);
    });

    it('numbers events from another kind of store in the order given, with data COPY escapes kept as it was', async () => {
      const awkward = {
        text: 'tab\there, line\nbreak, back\\slash \\N, quote " and ключ 🔑',
        nested: [null, 1.5],
      };
      const events = [restoredEvent(1, awkward), restoredEvent(2), restoredEvent(3, awkward)];
      expect(await writeRestoredEvents(pool, from(events))).toBe(3);
      const read = await readWhole(store);
      expect(read.map((recorded) => [recorded.id, recorded.data])).toEqual(
        events.map((written) => [written.id, written.data]),
      );
      // The identity numbers them (after what the refused writes above took), rising in the order given.
      const positions = read.map((recorded) => decodePosition(recorded.position)[1]);
      expect(positions).toEqual([...positions].sort((a, b) => (a < b ? -1 : 1)));
    });
  });
});
