import { randomUUID } from 'node:crypto';
import {
  type AppendResult,
  type EventMetadata,
  eventVersions,
  type RecordedEvent,
  recordedOrThrow,
  versionedEventStore,
} from '@licensestore/domain/events';
import pg from 'pg';
import type { StartedTestContainer } from 'testcontainers';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createTestDatabase } from '../../../test/support/database.js';
import { type EventStoreHarness, eventStoreContract, type SlowAppend } from './contract.js';
import { EventStoreDbEventStore } from './esdb.js';
import { appendManyWith, appendWith, notifyAppended, PostgresEventStore } from './postgres.js';
import { migrateEventStore } from './postgres-schema.js';

const ESDB_IMAGE = 'eventstore/eventstore:24.10.0-bookworm-slim';

/**
 * Where the EventStoreDB cases run: the server EVENTSTORE_CONNECTION_STRING names, else a throwaway container
 * when a Docker engine answers, else nowhere (the cases are reported as skipped, never as passed).
 */
async function eventStoreDbSource(): Promise<'connection string' | 'docker' | null> {
  if (process.env.EVENTSTORE_CONNECTION_STRING) return 'connection string';
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    let timer: NodeJS.Timeout | undefined;
    const answered = await Promise.race([
      getContainerRuntimeClient().then(
        () => true,
        () => false,
      ),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), 5_000);
      }),
    ]);
    clearTimeout(timer);
    return answered ? 'docker' : null;
  } catch {
    return null;
  }
}

const esdbSource = await eventStoreDbSource();
/**
 * Set by `npm run test:esdb`, whose whole point is a real server: there, a missing or silent server fails the run
 * instead of skipping the cases.
 */
const esdbRequired = process.env.EVENTSTORE_CONTRACT === 'required';
const ESDB_ANSWER_MS = 15_000;

/** Fails at once, saying why, when the server does not answer (every case would otherwise time out on its own). */
async function expectServerAnswers(connectionString: string) {
  const store = new EventStoreDbEventStore(connectionString);
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      store.readAll(null, 1),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${ESDB_ANSWER_MS} ms`)), ESDB_ANSWER_MS);
      }),
    ]);
  } catch (error) {
    throw new Error(`EventStoreDB at ${connectionString} does not answer: ${(error as Error).message}`, {
      cause: error,
    });
  } finally {
    clearTimeout(timer);
    await store.close().catch(() => {});
  }
}

describe('Postgres event store', () => {
  let databaseUrl: string;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
    try {
      await migrateEventStore(pool);
    } finally {
      await pool.end();
    }
  });

  const openPool = () => new pg.Pool({ connectionString: databaseUrl, max: 20 });

  const harness: EventStoreHarness = {
    idempotentAppendKeepsPosition: true,
    async createStore() {
      const pool = openPool();
      return {
        store: new PostgresEventStore(pool),
        appendSlowly(stream, events, expected, release): SlowAppend {
          let markWritten = () => {};
          const writtenSignal = new Promise<void>((resolve) => {
            markWritten = resolve;
          });
          const committed = (async (): Promise<AppendResult> => {
            const client = await pool.connect();
            try {
              await client.query('BEGIN');
              const result = await appendWith(client, stream, events, expected);
              markWritten();
              await release;
              await client.query('COMMIT');
              await notifyAppended(client);
              return result;
            } catch (error) {
              await client.query('ROLLBACK').catch(() => {});
              throw error;
            } finally {
              client.release();
            }
          })();
          // A failed append rejects `written` too, so a case never waits for a write that will not come.
          return { written: Promise.race([writtenSignal, committed.then(() => undefined)]), committed };
        },
      };
    },
  };

  eventStoreContract(() => harness);

  describe('versioned, as openEventStore returns it', () => {
    eventStoreContract(() => ({
      ...harness,
      async createStore() {
        const { store, appendSlowly } = await harness.createStore();
        return {
          store: versionedEventStore(store, eventVersions),
          appendSlowly: (stream, events, expected, release) =>
            appendSlowly(
              stream,
              events.map((event) => eventVersions.stamp(event)),
              expected,
              release,
            ),
        };
      },
    }));
  });

  describe('specifics of the Postgres log', () => {
    const metadata: EventMetadata = {
      actor: { type: 'system', id: 'postgres-spec' },
      correlationId: 'c',
      causationId: 'c',
      schemaVersion: 1,
    };
    const event = (type: string) => ({ id: randomUUID(), type, data: {}, metadata });

    async function openStore() {
      const pool = openPool();
      const store = new PostgresEventStore(pool);
      const cleanups: Array<() => Promise<unknown>> = [];
      onTestFinished(async () => {
        for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
        await store.close();
      });
      return { pool, store, cleanups };
    }

    async function readOurs(store: PostgresEventStore, streams: string[]) {
      const ours: RecordedEvent[] = [];
      let after: string | null = null;
      for (;;) {
        const page = await store.readAll(after, 500);
        if (page.length === 0) return ours;
        ours.push(...page.filter((recorded) => streams.includes(recorded.streamId)).map(recordedOrThrow));
        after = page.at(-1)?.position ?? after;
      }
    }

    describe('many appends at once', () => {
      it('writes them in the order given, a stream taking several, however many statements they take', async () => {
        const { pool, store } = await openStore();
        const streams = Array.from({ length: 40 }, () => `many-${randomUUID()}`);
        const revisions = new Map<string, bigint>();
        const appends = Array.from({ length: 400 }, (_, index) => {
          const stream = streams[index % streams.length] as string;
          const revision = revisions.get(stream) ?? -1n;
          const events = Array.from({ length: 1 + (index % 3) }, (_, n) => event(`Step${index}.${n}`));
          revisions.set(stream, revision + BigInt(events.length));
          return { stream, events, expected: revision < 0n ? ('no_stream' as const) : revision };
        });
        const result = await appendManyWith(pool, appends);
        const stored = await readOurs(store, streams);
        expect(stored.map((recorded) => recorded.type)).toEqual(
          appends.flatMap((append) => append.events.map((appended) => appended.type)),
        );
        for (const stream of streams) {
          const revisions = stored.filter((recorded) => recorded.streamId === stream).map((r) => r.revision);
          expect(revisions).toEqual(revisions.map((_, index) => BigInt(index)));
        }
        expect(result.position).toBe(stored.at(-1)?.position);
        expect(result.nextExpectedRevision).toBe(revisions.get(appends.at(-1)?.stream as string));
      });

      it('writes none of them in a transaction where one expects a revision its stream is not at', async () => {
        const { pool, store } = await openStore();
        const [fresh, taken] = [`many-${randomUUID()}`, `many-${randomUUID()}`];
        await appendWith(pool, taken, [event('Taken')], 'no_stream');
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          const appending = appendManyWith(client, [
            { stream: fresh, events: [event('Fresh')], expected: 'no_stream' },
            { stream: taken, events: [event('Again')], expected: 'no_stream' },
          ]);
          await expect(appending).rejects.toThrow(/expected a revision its stream is not at \(0\)/);
          await client.query('ROLLBACK');
        } finally {
          client.release();
        }
        expect((await readOurs(store, [fresh, taken])).map((recorded) => recorded.type)).toEqual(['Taken']);
      });
    });

    it('gives an event appended without an id a time-ordered one, stamped with the time of its append', async () => {
      const { store } = await openStore();
      const stream = `timeOrdered-${randomUUID()}`;
      const { id: _, ...withoutId } = event('First');
      const before = Date.now();
      await store.append(stream, [withoutId, { ...withoutId, type: 'Second' }], 'no_stream');
      const after = Date.now();
      const ids = (await readOurs(store, [stream])).map((recorded) => recorded.id);
      expect(ids).toHaveLength(2);
      for (const id of ids) {
        expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
        const minted = Number.parseInt(id.replace('-', '').slice(0, 12), 16);
        expect(minted).toBeGreaterThanOrEqual(before);
        expect(minted).toBeLessThanOrEqual(after);
      }
    });

    it('orders the log by transaction id as a number, across a change in the number of digits', async () => {
      // Transaction ids 99 and 100 lie below any running transaction on a fresh server, so both are readable.
      const pool = new pg.Pool({ connectionString: await createTestDatabase(), max: 2 });
      const store = new PostgresEventStore(pool);
      onTestFinished(() => store.close());
      await migrateEventStore(pool);
      await pool.query(
        `INSERT INTO event_store.events (transaction_id, stream_id, stream_revision, event_id, event_type, data, metadata)
         VALUES ('100', 'digits-b', 0, $1, 'Later', '{}', $3), ('99', 'digits-a', 0, $2, 'Earlier', '{}', $3)`,
        [randomUUID(), randomUUID(), JSON.stringify(metadata)],
      );
      expect((await store.readAll(null, 10)).map((recorded) => recorded.type)).toEqual(['Earlier', 'Later']);
      const [first] = await store.readAll(null, 1);
      expect((await store.readAll(first?.position ?? null, 10)).map((recorded) => recorded.type)).toEqual([
        'Later',
      ]);
    });

    it('holds back a committed event while an older writing transaction is open, then orders it after', async () => {
      const { pool, store, cleanups } = await openStore();
      const [slowStream, fastStream] = [`slow-${randomUUID()}`, `fast-${randomUUID()}`];
      const client = await pool.connect();
      cleanups.push(async () => client.release());
      await client.query('BEGIN');
      cleanups.push(() => client.query('ROLLBACK'));
      const slow = event('Opened');
      await appendWith(client, slowStream, [slow], 'no_stream');
      const fast = event('Opened');
      await store.append(fastStream, [fast], 'no_stream');

      expect(await readOurs(store, [slowStream, fastStream])).toEqual([]);
      await client.query('COMMIT');
      expect((await readOurs(store, [slowStream, fastStream])).map((recorded) => recorded.id)).toEqual([
        slow.id,
        fast.id,
      ]);
    });

    it('wakes a subscriber promptly when a transaction outside the event store stops holding it back', async () => {
      const { pool, store, cleanups } = await openStore();
      const stream = `heldBack-${randomUUID()}`;
      const other = await pool.connect();
      cleanups.push(async () => other.release());
      await other.query('BEGIN');
      cleanups.push(() => other.query('ROLLBACK'));
      await other.query('SELECT pg_current_xact_id()'); // takes an xid, as any writing transaction does

      const controller = new AbortController();
      const delivered = (async () => {
        for await (const recorded of store.subscribeAll(null, controller.signal)) {
          if (recorded.streamId === stream) return recorded;
        }
        return null;
      })();
      cleanups.push(async () => {
        controller.abort();
        await delivered;
      });
      const appended = event('Opened');
      await store.append(stream, [appended], 'no_stream');
      expect(await readOurs(store, [stream])).toEqual([]);

      // No NOTIFY follows this commit: only the held-back retry finds the event, well before the safety wake-up.
      await other.query('COMMIT');
      const started = Date.now();
      let timer: NodeJS.Timeout | undefined;
      const outcome = await Promise.race([
        delivered,
        new Promise<'late'>((resolve) => {
          timer = setTimeout(() => resolve('late'), 2_000);
        }),
      ]);
      clearTimeout(timer);
      expect(outcome === 'late' ? `not delivered within ${Date.now() - started} ms` : outcome?.id).toBe(
        appended.id,
      );
    });

    it('follows the log with more subscriptions than its pool has connections (one LISTEN shared by all)', async () => {
      const pool = new pg.Pool({ connectionString: databaseUrl, max: 3 });
      const store = new PostgresEventStore(pool);
      const controller = new AbortController();
      onTestFinished(async () => {
        controller.abort();
        await store.close();
      });
      const stream = `many-${randomUUID()}`;
      const { position: start } = await store.append(stream, [event('Opened')], 'no_stream');
      const followers = Array.from({ length: 8 }, async () => {
        for await (const recorded of store.subscribeAll(start, controller.signal)) {
          if (recorded.streamId === stream) return recorded.type;
        }
        return 'ended';
      });
      // Each holding its own connection, the fourth follower would wait for one forever.
      await store.append(stream, [event('Closed')], 0n);
      let timer: NodeJS.Timeout | undefined;
      const outcome = await Promise.race([
        Promise.all(followers),
        new Promise<string>((resolve) => {
          timer = setTimeout(() => resolve('not all delivered within 10 s'), 10_000);
        }),
      ]);
      clearTimeout(timer);
      expect(outcome).toEqual(Array.from({ length: 8 }, () => 'Closed'));
      const { rows } = await pool.query<{ listening: string }>(
        `SELECT count(*) AS listening FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = 'listen event_store_appended'`,
      );
      expect(Number(rows[0]?.listening)).toBeLessThanOrEqual(1);
    });

    it('ends a subscription with an error when its connection is lost, without crashing the process', async () => {
      const { pool, store, cleanups } = await openStore();
      const stream = `lost-${randomUUID()}`;
      await store.append(stream, [event('Opened')], 'no_stream');
      const controller = new AbortController();
      cleanups.push(async () => controller.abort());
      let live: () => void = () => {};
      const isLive = new Promise<void>((resolve) => {
        live = resolve;
      });
      const ended = (async () => {
        try {
          for await (const recorded of store.subscribeAll(null, controller.signal)) {
            if (recorded.streamId === stream) live();
          }
          return 'ended without error';
        } catch (error) {
          return error instanceof Error ? 'failed' : 'failed with a non-error';
        }
      })();
      await isLive;

      const { rows } = await pool.query<{ terminated: boolean }>(
        `SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = 'listen event_store_appended'`,
      );
      expect(rows).toEqual([{ terminated: true }]);
      let timer: NodeJS.Timeout | undefined;
      const outcome = await Promise.race([
        ended,
        new Promise<string>((resolve) => {
          timer = setTimeout(() => resolve('still running after 10 s'), 10_000);
        }),
      ]);
      clearTimeout(timer);
      expect(outcome).toBe('failed');
    });
  });
});

const NO_SERVER = 'EVENTSTORE_CONNECTION_STRING is unset and no Docker engine answers';

describe.skipIf(!esdbSource && !esdbRequired)(
  esdbSource
    ? `EventStoreDB event store (via ${esdbSource})`
    : esdbRequired
      ? `EventStoreDB event store [failed: ${NO_SERVER}]`
      : `EventStoreDB event store [skipped: ${NO_SERVER}]`,
  () => {
    let container: StartedTestContainer | undefined;
    let connectionString: string;

    beforeAll(async () => {
      if (!esdbSource) {
        throw new Error(
          `${NO_SERVER}: set it to the server to test, e.g. EVENTSTORE_CONNECTION_STRING=esdb://localhost:2113?tls=false`,
        );
      }
      if (process.env.EVENTSTORE_CONNECTION_STRING) {
        connectionString = process.env.EVENTSTORE_CONNECTION_STRING;
        await expectServerAnswers(connectionString);
        return;
      }
      const { GenericContainer, Wait } = await import('testcontainers');
      container = await new GenericContainer(ESDB_IMAGE)
        .withEnvironment({
          EVENTSTORE_INSECURE: 'true',
          EVENTSTORE_CLUSTER_SIZE: '1',
          EVENTSTORE_RUN_PROJECTIONS: 'All',
          EVENTSTORE_START_STANDARD_PROJECTIONS: 'true',
        })
        .withExposedPorts(2113)
        .withWaitStrategy(Wait.forHttp('/health/live', 2113).forStatusCodeMatching((status) => status < 300))
        .withStartupTimeout(180_000)
        .start();
      connectionString = `esdb://${container.getHost()}:${container.getMappedPort(2113)}?tls=false`;
    }, 240_000);

    afterAll(async () => {
      await container?.stop();
    });

    const harness: EventStoreHarness = {
      idempotentAppendKeepsPosition: false,
      async createStore() {
        const store = new EventStoreDbEventStore(connectionString);
        return {
          store,
          // EventStoreDB has no transaction to hold open: the slow writer simply appends late.
          appendSlowly: (stream, events, expected, release) => ({
            written: Promise.resolve(),
            committed: release.then(() => store.append(stream, events, expected)),
          }),
        };
      },
    };

    eventStoreContract(() => harness);
  },
);
