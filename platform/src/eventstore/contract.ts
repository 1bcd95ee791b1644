import { randomUUID } from 'node:crypto';
import {
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  isUnreadable,
  type LogEntry,
  type NewEvent,
  type Position,
  type RecordedEvent,
  WrongExpectedRevisionError,
} from '@licensestore/domain/events';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { AppendTooLargeError, MAX_APPEND_BYTES } from './append-size.js';

/**
 * The behaviour every EventStore adapter must share, registered once per adapter
 * (see eventstore.int.spec.ts). Every case uses fresh random stream ids, so cases never share state even
 * when they share a database or a server.
 */

export interface SlowAppend {
  /** Resolves once the store holds the write uncommitted (at once where a store cannot hold one open). */
  written: Promise<void>;
  committed: Promise<AppendResult>;
}

export interface StoreUnderTest {
  store: EventStore;
  /**
   * An append that commits only after `release` resolves. Postgres: BEGIN, append inside the transaction, wait,
   * COMMIT, so the write takes its place in the log first and becomes visible last. EventStoreDB has no open
   * transactions: it waits, then appends.
   */
  appendSlowly(
    stream: string,
    events: NewEvent[],
    expected: ExpectedRevision,
    release: Promise<void>,
  ): SlowAppend;
}

export interface EventStoreHarness {
  createStore(): Promise<StoreUnderTest>;
  /**
   * Whether a repeated (idempotent) append reports the original position too. EventStoreDB answers a repeat
   * with the log position of the stored event rather than the original commit position, so there only the
   * revision is compared.
   */
  idempotentAppendKeepsPosition: boolean;
}

const WAIT_MS = 10_000;

const metadata: EventMetadata = {
  actor: { type: 'system', id: 'contract-test' },
  correlationId: 'contract-correlation',
  causationId: 'contract-causation',
  schemaVersion: 1,
};

const newEvent = (type: string, data: Record<string, unknown> = {}): Required<NewEvent> => ({
  id: randomUUID(),
  type,
  data,
  metadata,
});

const newStream = (category = 'contractTest') => `${category}-${randomUUID()}`;

async function readStream(
  store: EventStore,
  stream: string,
  fromRevision?: bigint,
): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  for await (const event of store.readStream(stream, fromRevision)) events.push(event);
  return events;
}

/** The events of a page that read: cases share the log, and one leaves an event in it that does not. */
const readable = (entries: readonly LogEntry[]) =>
  entries.filter((entry): entry is RecordedEvent => !isUnreadable(entry));

/** Reads $all to its current end, the way a checkpointing reader does. */
async function readToEnd(store: EventStore, after: Position | null, pageSize = 500) {
  const events: RecordedEvent[] = [];
  let checkpoint = after;
  for (;;) {
    const page = await store.readAll(checkpoint, pageSize);
    if (page.length === 0) return { events, checkpoint };
    events.push(...readable(page));
    checkpoint = page.at(-1)?.position ?? checkpoint;
  }
}

async function expectConflict(append: Promise<unknown>, actual: bigint | 'no_stream') {
  const error = await append.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(WrongExpectedRevisionError);
  expect((error as WrongExpectedRevisionError).actual).toBe(actual);
}

function within<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)),
      timeoutMs,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const idsOf = (events: RecordedEvent[]) => events.map((event) => event.id);

function expectIncreasingPositions(events: RecordedEvent[]) {
  for (let i = 1; i < events.length; i++) {
    expect((events[i] as RecordedEvent).position > (events[i - 1] as RecordedEvent).position).toBe(true);
  }
}

/** Each event once; within each stream, revisions 0, 1, 2, … in delivery order. */
function expectEachOnceInStreamOrder(delivered: RecordedEvent[], expected: NewEvent[]) {
  expect([...idsOf(delivered)].sort()).toEqual(expected.map((event) => event.id).sort());
  const revisions = new Map<string, bigint[]>();
  for (const event of delivered)
    revisions.set(event.streamId, [...(revisions.get(event.streamId) ?? []), event.revision]);
  for (const list of revisions.values()) expect(list).toEqual(list.map((_, i) => BigInt(i)));
}

interface Subscriber {
  /** Our events, in delivery order. */
  received: RecordedEvent[];
  /** Position of the last event delivered, ours or not: what a checkpointing subscriber stores. */
  readonly checkpoint: Position | null;
  readonly ended: boolean;
  until(condition: (received: RecordedEvent[]) => boolean, what: string, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

function startSubscriber(
  store: EventStore,
  after: Position | null,
  isOurs: (event: RecordedEvent) => boolean,
  stopWhen: (received: RecordedEvent[]) => boolean = () => false,
): Subscriber {
  const controller = new AbortController();
  const received: RecordedEvent[] = [];
  const delivered: RecordedEvent[] = [];
  let checkpoint = after;
  let ended = false;
  let failure: unknown = null;
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of listeners) listener();
  };
  const loop = (async () => {
    try {
      for await (const event of store.subscribeAll(after, controller.signal)) {
        checkpoint = event.position;
        if (isUnreadable(event)) continue;
        delivered.push(event);
        if (isOurs(event)) received.push(event);
        notify();
        if (stopWhen(received)) break;
      }
    } catch (error) {
      failure = error;
    } finally {
      ended = true;
      notify();
    }
  })();
  return {
    received,
    get checkpoint() {
      return checkpoint;
    },
    get ended() {
      return ended;
    },
    until: (condition, what, timeoutMs = WAIT_MS) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (condition(received)) return finish();
          if (failure) return finish(failure);
          if (ended) return finish(new Error(`subscription ended before ${what}`));
        };
        const timer = setTimeout(
          () => finish(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)),
          timeoutMs,
        );
        const finish = (error?: unknown) => {
          clearTimeout(timer);
          listeners.delete(check);
          if (error) reject(error);
          else {
            // Whatever a store delivers, its positions must keep increasing: checkpoints depend on it.
            expectIncreasingPositions(delivered);
            resolve();
          }
        };
        listeners.add(check);
        check();
      }),
    stop: async () => {
      controller.abort();
      await loop;
      if (failure) throw failure;
    },
  };
}

/** A store for one case; subscribers and slow appends it started are ended before the store closes. */
async function open(harness: EventStoreHarness) {
  const { store, appendSlowly } = await harness.createStore();
  const subscribers: Subscriber[] = [];
  const releases: Array<() => void> = [];
  const pending: Promise<unknown>[] = [];
  onTestFinished(async () => {
    for (const release of releases) release();
    await Promise.allSettled([...subscribers.map((subscriber) => subscriber.stop()), ...pending]);
    await store.close();
  });
  return {
    store,
    subscribe(after: Position | null, streams: string[], stopWhen?: (received: RecordedEvent[]) => boolean) {
      const subscriber = startSubscriber(store, after, (event) => streams.includes(event.streamId), stopWhen);
      subscribers.push(subscriber);
      return subscriber;
    },
    appendSlowly(stream: string, events: NewEvent[], expected: ExpectedRevision) {
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      releases.push(release);
      const slow = appendSlowly(stream, events, expected, released);
      pending.push(slow.committed, slow.written);
      return { ...slow, release };
    },
  };
}

export function eventStoreContract(harness: () => EventStoreHarness): void {
  describe('append and readStream', () => {
    it('numbers a new stream from revision 0 and answers the next expected revision', async () => {
      const { store } = await open(harness());
      const stream = newStream();
      const first = await store.append(stream, [newEvent('Opened'), newEvent('Noted')], 'no_stream');
      expect(first.nextExpectedRevision).toBe(1n);
      const second = await store.append(stream, [newEvent('Noted')], 1n);
      expect(second.nextExpectedRevision).toBe(2n);
      expect((await readStream(store, stream)).map((event) => event.revision)).toEqual([0n, 1n, 2n]);
    });

    it('reads a missing stream as empty', async () => {
      const { store } = await open(harness());
      expect(await readStream(store, newStream())).toEqual([]);
      expect(await readStream(store, newStream(), 3n)).toEqual([]);
    });

    it('reads a stream from a revision on, across pages, and nothing past its end', async () => {
      const { store } = await open(harness());
      const stream = newStream();
      const events = Array.from({ length: 1_003 }, (_, n) => newEvent('Noted', { n }));
      await store.append(stream, events, 'no_stream');
      const tail = await readStream(store, stream, 2n);
      expect(tail.map((event) => event.revision)).toEqual(events.slice(2).map((_, i) => BigInt(i + 2)));
      expect(tail.map((event) => event.id)).toEqual(events.slice(2).map((event) => event.id));
      expect(await readStream(store, stream, 1_003n)).toEqual([]);
    });

    it('reads only the last event of a stream, null for a missing one', async () => {
      const { store } = await open(harness());
      const stream = newStream();
      expect(await store.readLastEvent(stream)).toBeNull();
      const events = Array.from({ length: 1_003 }, (_, n) => newEvent('Noted', { n }));
      await store.append(stream, events, 'no_stream');
      const appended = await store.append(stream, [newEvent('Closed', { n: 1_003 })], 1_002n);
      const last = await store.readLastEvent(stream);
      expect(last).toMatchObject({
        streamId: stream,
        revision: 1_003n,
        type: 'Closed',
        data: { n: 1_003 },
        position: appended.position,
      });
      expect(await store.readLastEvent(newStream())).toBeNull();
    });

    it('reads back what was appended, in revision order', async () => {
      const { store } = await open(harness());
      const stream = newStream();
      const events = [
        newEvent('Opened', { name: 'Ünïcødé ✓', nested: { list: [1, 2, 3] } }),
        newEvent('Noted', { n: 1 }),
        newEvent('Noted', { n: 2 }),
      ];
      await store.append(stream, events.slice(0, 1), 'no_stream');
      await store.append(stream, events.slice(1), 0n);
      const read = await readStream(store, stream);
      expect(
        read.map(({ id, streamId, revision, type, data, metadata }) => ({
          id,
          streamId,
          revision,
          type,
          data,
          metadata,
        })),
      ).toEqual(events.map((event, i) => ({ ...event, streamId: stream, revision: BigInt(i) })));
      for (const event of read) expect(event.createdAt).toBeInstanceOf(Date);
    });

    describe('with expected revision no_stream', () => {
      it('creates a missing stream', async () => {
        const { store } = await open(harness());
        const stream = newStream();
        await store.append(stream, [newEvent('Opened')], 'no_stream');
        expect(await readStream(store, stream)).toHaveLength(1);
      });

      it('conflicts on an existing stream, reporting its actual revision', async () => {
        const { store } = await open(harness());
        const stream = newStream();
        await store.append(stream, [newEvent('Opened'), newEvent('Noted')], 'no_stream');
        await expectConflict(store.append(stream, [newEvent('Opened')], 'no_stream'), 1n);
        expect(await readStream(store, stream)).toHaveLength(2);
      });
    });

    describe('with expected revision stream_exists', () => {
      it('conflicts on a missing stream, reporting no_stream', async () => {
        const { store } = await open(harness());
        const stream = newStream();
        await expectConflict(store.append(stream, [newEvent('Noted')], 'stream_exists'), 'no_stream');
        expect(await readStream(store, stream)).toEqual([]);
      });

      it('appends to an existing stream', async () => {
        const { store } = await open(harness());
        const stream = newStream();
        await store.append(stream, [newEvent('Opened')], 'no_stream');
        const result = await store.append(stream, [newEvent('Noted')], 'stream_exists');
        expect(result.nextExpectedRevision).toBe(1n);
      });
    });

    describe('with an exact expected revision', () => {
      it('appends when the stream is at that revision', async () => {
        const { store } = await open(harness());
        const stream = newStream();
        await store.append(stream, [newEvent('Opened'), newEvent('Noted')], 'no_stream');
        const result = await store.append(stream, [newEvent('Noted')], 1n);
        expect(result.nextExpectedRevision).toBe(2n);
      });

      it('conflicts when the stream is behind or ahead of it, storing nothing', async () => {
        const { store } = await open(harness());
        const stream = newStream();
        await store.append(stream, [newEvent('Opened'), newEvent('Noted')], 'no_stream');
        await expectConflict(store.append(stream, [newEvent('Noted')], 0n), 1n);
        await expectConflict(store.append(stream, [newEvent('Noted')], 5n), 1n);
        expect(await readStream(store, stream)).toHaveLength(2);
      });

      it('conflicts on a missing stream, reporting no_stream', async () => {
        const { store } = await open(harness());
        const stream = newStream();
        await expectConflict(store.append(stream, [newEvent('Noted')], 0n), 'no_stream');
      });
    });

    describe('with expected revision any', () => {
      it('appends to a missing and to an existing stream', async () => {
        const { store } = await open(harness());
        const stream = newStream();
        expect((await store.append(stream, [newEvent('Opened')], 'any')).nextExpectedRevision).toBe(0n);
        expect(
          (await store.append(stream, [newEvent('Noted'), newEvent('Noted')], 'any')).nextExpectedRevision,
        ).toBe(2n);
        expect(await readStream(store, stream)).toHaveLength(3);
      });
    });

    describe('when the same event ids are appended again', () => {
      it.each<{ name: string; setUp: NewEvent[]; expected: ExpectedRevision }>([
        { name: 'no_stream', setUp: [], expected: 'no_stream' },
        { name: 'an exact revision', setUp: [newEvent('Opened')], expected: 0n },
        { name: 'stream_exists', setUp: [newEvent('Opened')], expected: 'stream_exists' },
      ])('with $name answers like the first append and stores nothing twice', async ({ setUp, expected }) => {
        const { store } = await open(harness());
        const stream = newStream();
        if (setUp.length > 0)
          await store.append(
            stream,
            setUp.map((event) => ({ ...event, id: randomUUID() })),
            'no_stream',
          );
        const events = [newEvent('Noted', { n: 1 }), newEvent('Noted', { n: 2 })];
        const first = await store.append(stream, events, expected);
        const again = await store.append(stream, events, expected);
        expect(again.nextExpectedRevision).toBe(first.nextExpectedRevision);
        if (harness().idempotentAppendKeepsPosition) expect(again.position).toBe(first.position);
        const stored = await readStream(store, stream);
        expect(stored).toHaveLength(setUp.length + events.length);
        expect(idsOf(stored).slice(setUp.length)).toEqual(events.map((event) => event.id));
      });
    });

    it("answers an append's position as the position readers of $all find its event at", async () => {
      const { store } = await open(harness());
      const { checkpoint } = await readToEnd(store, null);
      const stream = newStream();
      const first = await store.append(stream, [newEvent('Opened')], 'no_stream');
      const second = await store.append(stream, [newEvent('Noted')], 0n);
      expect(second.position > first.position).toBe(true);
      await vi.waitFor(
        async () => {
          const ours = (await readToEnd(store, checkpoint)).events.filter(
            (event) => event.streamId === stream,
          );
          expect(ours.map((event) => event.position)).toEqual([first.position, second.position]);
        },
        { timeout: WAIT_MS, interval: 20 },
      );
    });
  });

  describe('appends of several events', () => {
    it("answers the position of the append's last event, so reading $all after it finds none of them", async () => {
      const { store } = await open(harness());
      const { checkpoint } = await readToEnd(store, null);
      const stream = newStream();
      const events = [newEvent('Opened'), newEvent('Noted'), newEvent('Closed')];
      const appended = await store.append(stream, events, 'no_stream');
      const after = newEvent('Reopened');
      await store.append(stream, [after], 2n);
      await vi.waitFor(
        async () => {
          const ours = (await readToEnd(store, checkpoint)).events.filter(
            (event) => event.streamId === stream,
          );
          expect(idsOf(ours)).toEqual([...events, after].map((event) => event.id));
          expect(ours[2]?.position).toBe(appended.position);
        },
        { timeout: WAIT_MS, interval: 20 },
      );
      const ours = (await readToEnd(store, appended.position)).events.filter(
        (event) => event.streamId === stream,
      );
      expect(idsOf(ours)).toEqual([after.id]);
    });
  });

  describe('the append size limit', () => {
    /** Events of about `bytes` each, their data a string of that many ASCII characters. */
    const sized = (count: number, bytes: number) =>
      Array.from({ length: count }, (_, n) => newEvent('Sized', { n, padding: 'x'.repeat(bytes) }));

    it('refuses an append over the limit, storing none of it', async () => {
      const { store } = await open(harness());
      const stream = newStream();
      const error = await store.append(stream, sized(5, MAX_APPEND_BYTES / 4), 'no_stream').then(
        () => null,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(AppendTooLargeError);
      expect((error as Error).message).toMatch(/over the 1048576-byte limit of one append; split it/);
      expect(await readStream(store, stream)).toEqual([]);
    });

    it('takes the same events split into appends under the limit', async () => {
      const { store } = await open(harness());
      const stream = newStream();
      const events = sized(5, MAX_APPEND_BYTES / 4);
      await store.append(stream, events.slice(0, 3), 'no_stream');
      await store.append(stream, events.slice(3), 2n);
      expect(idsOf(await readStream(store, stream))).toEqual(events.map((event) => event.id));
    });
  });

  describe('concurrent appenders', () => {
    it('lets exactly one of 50 appenders expecting the same revision win, round after round', async () => {
      const { store } = await open(harness());
      const stream = newStream();
      const rounds = 5;
      for (let round = 0; round < rounds; round++) {
        const appenders = await Promise.all(
          Array.from({ length: 50 }, async (_, appender) => {
            const current = await readStream(store, stream);
            const expected: ExpectedRevision = current.at(-1)?.revision ?? 'no_stream';
            return { expected, event: newEvent('Bid', { round, appender }) };
          }),
        );
        expect(new Set(appenders.map(({ expected }) => expected))).toEqual(
          new Set([round === 0 ? 'no_stream' : BigInt(round - 1)]),
        );
        const outcomes = await Promise.allSettled(
          appenders.map(({ event, expected }) => store.append(stream, [event], expected)),
        );
        const won = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
        const lost = outcomes.flatMap((outcome) =>
          outcome.status === 'rejected' ? [outcome.reason as unknown] : [],
        );
        expect(won).toHaveLength(1);
        expect(won[0]?.nextExpectedRevision).toBe(BigInt(round));
        expect(lost).toHaveLength(49);
        for (const error of lost) {
          expect(error).toBeInstanceOf(WrongExpectedRevisionError);
          expect((error as WrongExpectedRevisionError).actual).toBe(BigInt(round));
        }
      }
      const stored = await readStream(store, stream);
      expect(stored.map((event) => event.revision)).toEqual(
        Array.from({ length: rounds }, (_, i) => BigInt(i)),
      );
      expect(stored.map((event) => (event.data as { round: number }).round)).toEqual(
        Array.from({ length: rounds }, (_, i) => i),
      );
    });

    it('gives 50 concurrent appends with any gap-free revisions, each batch contiguous', async () => {
      const { store } = await open(harness());
      const stream = newStream();
      const batches = Array.from({ length: 50 }, (_, appender) => [
        newEvent('Noted', { appender, part: 0 }),
        newEvent('Noted', { appender, part: 1 }),
      ]);
      const results = await Promise.all(batches.map((events) => store.append(stream, events, 'any')));
      expect(new Set(results.map((result) => result.nextExpectedRevision)).size).toBe(50);
      const stored = await readStream(store, stream);
      expect(stored.map((event) => event.revision)).toEqual(Array.from({ length: 100 }, (_, i) => BigInt(i)));
      expect(new Set(idsOf(stored)).size).toBe(100);
      for (let i = 0; i < stored.length; i += 2) {
        const [first, second] = [stored[i]?.data, stored[i + 1]?.data] as Array<{
          appender: number;
          part: number;
        }>;
        expect(second?.appender).toBe(first?.appender);
        expect([first?.part, second?.part]).toEqual([0, 1]);
      }
    });
  });

  describe('readAll', () => {
    it('pages through $all after a checkpoint, each event once, in increasing positions', async () => {
      const { store } = await open(harness());
      const { checkpoint } = await readToEnd(store, null);
      const [a, b] = [newStream(), newStream()];
      const events = Array.from({ length: 10 }, (_, i) => newEvent('Noted', { i }));
      for (const [i, event] of events.entries()) {
        const stream = i % 2 === 0 ? a : b;
        await store.append(stream, [event], 'any');
      }
      await vi.waitFor(
        async () => {
          const pages: RecordedEvent[][] = [];
          let cursor = checkpoint;
          for (;;) {
            const page = await store.readAll(cursor, 3);
            if (page.length === 0) break;
            expect(page.length).toBeLessThanOrEqual(3);
            pages.push(readable(page));
            cursor = page.at(-1)?.position ?? cursor;
          }
          const read = pages.flat();
          expectIncreasingPositions(read);
          const ours = read.filter((event) => event.streamId === a || event.streamId === b);
          expect(idsOf(ours)).toEqual(events.map((event) => event.id));
        },
        { timeout: WAIT_MS, interval: 20 },
      );
    });

    it('never lets a checkpointing reader pass a slow transaction that commits after a later one', async () => {
      const { store, appendSlowly } = await open(harness());
      const { checkpoint: start } = await readToEnd(store, null);
      const [slowStream, fastStream] = [newStream(), newStream()];
      const slowEvents = [newEvent('Opened'), newEvent('Noted')];
      const fastEvents = [newEvent('Opened')];

      const slow = appendSlowly(slowStream, slowEvents, 'no_stream');
      await slow.written;
      await store.append(fastStream, fastEvents, 'no_stream');

      // The reader keeps reading and checkpointing while the slow write is still open.
      const seen: RecordedEvent[] = [];
      let checkpoint = start;
      for (let i = 0; i < 3; i++) {
        const { events, checkpoint: next } = await readToEnd(store, checkpoint);
        seen.push(...events);
        checkpoint = next;
      }

      slow.release();
      await slow.committed;
      await vi.waitFor(
        async () => {
          const { events, checkpoint: next } = await readToEnd(store, checkpoint);
          seen.push(...events);
          checkpoint = next;
          const ours = seen.filter((event) => event.streamId === slowStream || event.streamId === fastStream);
          expect(ours).toHaveLength(3);
        },
        { timeout: WAIT_MS, interval: 20 },
      );
      expectIncreasingPositions(seen);
      const ours = seen.filter((event) => event.streamId === slowStream || event.streamId === fastStream);
      expectEachOnceInStreamOrder(ours, [...slowEvents, ...fastEvents]);
    });
  });

  describe('readAllOfTypes', () => {
    it('pages through the events of the given types only, in log order, each once', async () => {
      const { store } = await open(harness());
      const { checkpoint } = await readToEnd(store, null);
      // Types of this case only: the log holds every other case's events too.
      const [kept, passed, alsoKept] = ['Kept', 'Passed', 'AlsoKept'].map((type) => `${type}${randomUUID()}`);
      const [a, b] = [newStream(), newStream()];
      const events = Array.from({ length: 9 }, (_, i) =>
        newEvent([kept, passed, alsoKept][i % 3] as string, { i }),
      );
      for (const [i, event] of events.entries()) await store.append(i % 2 === 0 ? a : b, [event], 'any');
      await vi.waitFor(
        async () => {
          const read: RecordedEvent[] = [];
          let cursor = checkpoint;
          for (;;) {
            const page = await store.readAllOfTypes(cursor, 2, [kept as string, alsoKept as string]);
            expect(page.length).toBeLessThanOrEqual(2);
            read.push(...readable(page));
            if (page.length < 2) break;
            cursor = page.at(-1)?.position ?? cursor;
          }
          expectIncreasingPositions(read);
          expect(idsOf(read)).toEqual(
            events.filter((event) => event.type !== passed).map((event) => event.id),
          );
        },
        { timeout: WAIT_MS, interval: 20 },
      );
    });
  });

  describe('an event whose metadata does not read', () => {
    /** Stored as only an old or foreign writer could: the actor is missing. */
    const unreadable = () => {
      const { actor: _missing, ...withoutActor } = metadata;
      return { ...newEvent('Noted'), metadata: withoutActor as unknown as EventMetadata };
    };

    it('is handed out in its place by readAll and subscribeAll, saying why; a read of its stream throws', async () => {
      const { store } = await open(harness());
      const { checkpoint } = await readToEnd(store, null);
      const stream = newStream();
      const [before, bad, after] = [newEvent('Opened'), unreadable(), newEvent('Noted')];
      await store.append(stream, [before], 'no_stream');
      await store.append(stream, [bad], 0n);
      await store.append(stream, [after], 1n);
      const expected = [
        { id: before.id, unreadable: false },
        { id: bad.id, unreadable: true, streamId: stream, type: 'Noted', revision: 1n },
        { id: after.id, unreadable: false },
      ];
      const shape = (entry: LogEntry) =>
        isUnreadable(entry)
          ? {
              id: entry.id,
              unreadable: true,
              streamId: entry.streamId,
              type: entry.type,
              revision: entry.revision,
            }
          : { id: entry.id, unreadable: false };

      const read: LogEntry[] = [];
      await vi.waitFor(
        async () => {
          for (let page = await store.readAll(read.at(-1)?.position ?? checkpoint, 2); page.length > 0; ) {
            read.push(...page);
            page = await store.readAll(read.at(-1)?.position ?? checkpoint, 2);
          }
          expect(read.filter((entry) => entry.streamId === stream).map(shape)).toEqual(expected);
        },
        { timeout: WAIT_MS, interval: 20 },
      );
      const readBad = read.find((entry) => entry.id === bad.id);
      expect(readBad && isUnreadable(readBad) ? readBad.reason : null).toContain('metadata.actor');

      const controller = new AbortController();
      const delivered: LogEntry[] = [];
      for await (const entry of store.subscribeAll(checkpoint, controller.signal)) {
        if (entry.streamId === stream) delivered.push(entry);
        if (entry.id === after.id) controller.abort();
      }
      expect(delivered.map(shape)).toEqual(expected);
      expect(delivered[1]?.position).toBe(readBad?.position);

      await expect(readStream(store, stream)).rejects.toThrow();
    });
  });

  describe('subscribeAll', () => {
    it('delivers every event of ours while catching up, then live ones', async () => {
      const { store, subscribe } = await open(harness());
      // Categories of the test's own: the store's are checked against their schemas, and these events are not theirs.
      const streams = [newStream('contractProduct'), newStream('contractOrder'), newStream('contractKeys')];
      const [product, order, keys] = streams as [string, string, string];
      const before = [newEvent('ProductCreated', { price: '19.99' }), newEvent('ProductUpdated')];
      const captured = newEvent('OrderCaptured');
      await store.append(product, before, 'no_stream');
      await store.append(order, [captured], 'no_stream');

      const subscriber = subscribe(null, streams);
      await subscriber.until((received) => received.length === 3, 'the events appended before it started');

      const live = [newEvent('LicenceKeyAdded'), newEvent('LicenceKeyAdded')];
      await store.append(keys, live, 'no_stream');
      const more = newEvent('OrderStatusChanged', { from: 'paid', to: 'delivered' });
      await store.append(order, [more], 0n);
      await subscriber.until((received) => received.length === 6, 'the events appended after it caught up');

      expect(idsOf(subscriber.received)).toEqual(
        [...before, captured, ...live, more].map((event) => event.id),
      );
      const last = subscriber.received.at(-1);
      expect({
        streamId: last?.streamId,
        revision: last?.revision,
        type: last?.type,
        data: last?.data,
      }).toEqual({
        streamId: order,
        revision: 1n,
        type: 'OrderStatusChanged',
        data: { from: 'paid', to: 'delivered' },
      });
      expect(last?.metadata).toEqual(metadata);
    });

    it('delivers a slow transaction that commits after a later one: each event once, in stream order', async () => {
      const { store, subscribe, appendSlowly } = await open(harness());
      const [warmUp, slowStream, fastStream, sentinel] = [newStream(), newStream(), newStream(), newStream()];
      const subscriber = subscribe(null, [warmUp, slowStream, fastStream, sentinel]);
      await store.append(warmUp, [newEvent('Opened')], 'no_stream');
      await subscriber.until((received) => received.length === 1, 'the subscription to go live');

      const slowEvents = [newEvent('Opened'), newEvent('Noted'), newEvent('Noted')];
      const fastEvents = [newEvent('Opened'), newEvent('Noted'), newEvent('Noted')];
      const slow = appendSlowly(slowStream, slowEvents, 'no_stream');
      await slow.written;
      await store.append(fastStream, fastEvents.slice(0, 2), 'no_stream');
      await store.append(fastStream, fastEvents.slice(2), 1n);
      slow.release();
      await slow.committed;
      const last = newEvent('Closed');
      await store.append(sentinel, [last], 'no_stream');

      await subscriber.until((received) => idsOf(received).includes(last.id), 'the event appended last');
      const scenario = subscriber.received.slice(1);
      expectEachOnceInStreamOrder(scenario, [...slowEvents, ...fastEvents, last]);
    });

    it('resumes from its checkpoint after a restart with nothing twice and nothing missed', async () => {
      const { store, subscribe } = await open(harness());
      const [a, b] = [newStream(), newStream()];
      const firstBatch = Array.from({ length: 10 }, (_, i) => newEvent('Noted', { i }));
      await store.append(a, firstBatch.slice(0, 5), 'no_stream');
      await store.append(b, firstBatch.slice(5), 'no_stream');

      // The first run stops (a crash, a deploy) after the sixth of our events; its checkpoint is what it stored.
      const firstRun = subscribe(null, [a, b], (received) => received.length === 6);
      await firstRun.until((received) => received.length === 6, 'six events');
      await firstRun.stop();
      expect(firstRun.received).toHaveLength(6);
      const checkpoint = firstRun.checkpoint;
      expect(checkpoint).toBe(firstRun.received.at(-1)?.position);

      const secondBatch = Array.from({ length: 6 }, (_, i) => newEvent('Noted', { i: 10 + i }));
      await store.append(a, secondBatch.slice(0, 3), 4n);
      await store.append(b, secondBatch.slice(3), 4n);

      const secondRun = subscribe(checkpoint, [a, b]);
      await secondRun.until((received) => received.length >= 10, 'the rest of the events');
      const last = newEvent('Closed');
      await store.append(a, [last], 7n);
      await secondRun.until((received) => idsOf(received).includes(last.id), 'the event appended last');

      expect(new Set(idsOf(firstRun.received)).size).toBe(6);
      for (const id of idsOf(firstRun.received)) expect(idsOf(secondRun.received)).not.toContain(id);
      expectEachOnceInStreamOrder(
        [...firstRun.received, ...secondRun.received],
        [...firstBatch, ...secondBatch, last],
      );
    });

    it('ends when its signal aborts while it waits for live events', async () => {
      const { store, subscribe } = await open(harness());
      const stream = newStream();
      await store.append(stream, [newEvent('Opened')], 'no_stream');
      const subscriber = subscribe(null, [stream]);
      await subscriber.until((received) => received.length === 1, 'the subscription to go live');
      await within(subscriber.stop(), 5_000, 'the subscription to end');
      expect(subscriber.ended).toBe(true);
    });
  });
}
