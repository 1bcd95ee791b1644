import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/support/database.js';
import { type NewEvent, type RecordedEvent, recordedOrThrow } from './port.js';
import { decodePosition } from './position.js';
import { appendWith, PostgresEventStore } from './postgres.js';
import { writeRestoredEvents } from './postgres-restore.js';
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
});
