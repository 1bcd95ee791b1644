import { randomUUID } from 'node:crypto';
import { IllegalStateError } from '@licensestore/domain';
import type { Decider } from '@licensestore/domain/commands';
import {
  type EventStore,
  type NewEventMetadata,
  type RecordedEvent,
  WrongExpectedRevisionError,
} from '@licensestore/domain/events';
import { decodePosition } from '@licensestore/platform/eventstore';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { workersTestEnvironment } from '../testing/fixtures.js';
import { latch } from '../testing/latch.js';
import { groupedDecisions } from './conflicts.js';

type Environment = Awaited<ReturnType<typeof workersTestEnvironment>>;

/** A counter: each command adds an amount; a negative amount is refused, zero changes nothing. */
type Added = { type: 'Added'; data: { amount: number } };
const counter: Decider<{ amount: number }, number, Added> = {
  initialState: 0,
  decide: ({ amount }) => {
    if (amount < 0) throw new IllegalStateError('a counter only grows');
    return amount === 0 ? [] : [{ type: 'Added', data: { amount } }];
  },
  evolve: (total, event) => total + event.data.amount,
  parse: (type, data) => (type === 'Added' ? { type, data: data as { amount: number } } : null),
};

const metadata = (causationId: string): NewEventMetadata => ({
  actor: { type: 'system', id: 'test' },
  correlationId: 'test',
  causationId,
});

describe('Grouped decisions', () => {
  let env: Environment;
  let stream: string;
  const read = async () => {
    const events: RecordedEvent[] = [];
    for await (const event of env.eventStore.readStream(stream)) events.push(event);
    return events;
  };

  beforeEach(async () => {
    env = await workersTestEnvironment();
    stream = `counter-${randomUUID()}`;
  });

  afterEach(async () => {
    await env.close();
  });

  it('decides the commands that arrive while a decision is in flight together: one load, one append', async () => {
    const decide = groupedDecisions(env.eventStore, counter);
    const decided = await Promise.all(
      Array.from({ length: 20 }, (_, i) => decide(stream, { amount: i + 1 }, metadata(`cause-${i}`))),
    );

    expect(decided.map((events) => events.map((event) => event.data.amount))).toEqual(
      Array.from({ length: 20 }, (_, i) => [i + 1]),
    );
    const events = await read();
    expect(events.map((event) => (event.data as { amount: number }).amount)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    expect(events.map((event) => event.metadata.causationId)).toEqual(
      Array.from({ length: 20 }, (_, i) => `cause-${i}`),
    );
    // The first command finds nothing in flight and goes alone; the 19 behind it go in one append.
    const appends = new Set(events.map((event) => decodePosition(event.position)[0]));
    expect(appends.size).toBe(2);
  });

  it('fails a command the decider refuses alone, and appends the others of its group', async () => {
    const decide = groupedDecisions(env.eventStore, counter);
    const outcomes = await Promise.allSettled([
      decide(stream, { amount: 1 }, metadata('first')),
      decide(stream, { amount: 2 }, metadata('second')),
      decide(stream, { amount: -1 }, metadata('refused')),
      decide(stream, { amount: 0 }, metadata('no-op')),
      decide(stream, { amount: 3 }, metadata('third')),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    expect((outcomes[2] as PromiseRejectedResult).reason).toBeInstanceOf(IllegalStateError);
    expect((outcomes[3] as PromiseFulfilledResult<Added[]>).value).toEqual([]);
    expect((await read()).map((event) => event.metadata.causationId)).toEqual(['first', 'second', 'third']);
  });

  it("folds only what was appended since its last decision, its own events and other processes'", async () => {
    const capped: typeof counter = {
      ...counter,
      decide: (command, total) => {
        if (total + command.amount > 7) throw new IllegalStateError(`${total} + ${command.amount} is over 7`);
        return counter.decide(command, total);
      },
    };
    const readFrom: Array<bigint | undefined> = [];
    const tracked: EventStore = {
      ...env.eventStore,
      readStream: (name, from) => {
        readFrom.push(from);
        return env.eventStore.readStream(name, from);
      },
    };
    const decide = groupedDecisions(tracked, capped);

    await decide(stream, { amount: 1 }, metadata('first'));
    await groupedDecisions(env.eventStore, capped)(stream, { amount: 5 }, metadata('elsewhere'));
    await expect(decide(stream, { amount: 2 }, metadata('over'))).rejects.toThrow('6 + 2 is over 7');
    await decide(stream, { amount: 1 }, metadata('last'));

    expect(readFrom).toEqual([0n, 1n, 2n]);
    expect((await read()).map((event) => event.metadata.causationId)).toEqual(['first', 'elsewhere', 'last']);
  });

  it('folds nothing twice from an event store that reads every stream from the start', async () => {
    const fromStart: EventStore = {
      ...env.eventStore,
      readStream: (name) => env.eventStore.readStream(name),
    };
    const capped: typeof counter = {
      ...counter,
      decide: (command, total) => {
        if (total + command.amount > 3) throw new IllegalStateError(`${total} + ${command.amount} is over 3`);
        return counter.decide(command, total);
      },
    };
    const decide = groupedDecisions(fromStart, capped);
    await decide(stream, { amount: 1 }, metadata('first'));
    await groupedDecisions(env.eventStore, capped)(stream, { amount: 1 }, metadata('elsewhere'));
    await decide(stream, { amount: 1 }, metadata('third'));
    await expect(decide(stream, { amount: 1 }, metadata('fourth'))).rejects.toThrow('3 + 1 is over 3');
  });

  it('forgets the least recently decided streams past the events it may keep, and reads them again in full', async () => {
    const readFrom: Array<[string, bigint | undefined]> = [];
    const tracked: EventStore = {
      ...env.eventStore,
      readStream: (name, from) => {
        readFrom.push([name, from]);
        return env.eventStore.readStream(name, from);
      },
    };
    const decide = groupedDecisions(tracked, counter, { streams: 10, events: 5 });
    const [a, b] = [`counter-${randomUUID()}`, `counter-${randomUUID()}`];
    for (const amount of [1, 2, 3]) await decide(a, { amount }, metadata(`a${amount}`));
    for (const amount of [1, 2, 3]) await decide(b, { amount }, metadata(`b${amount}`));
    // Six events kept is one too many: the stream decided least recently goes, the one just decided stays.
    await decide(a, { amount: 4 }, metadata('a4'));
    await decide(b, { amount: 4 }, metadata('b4'));

    expect(readFrom).toEqual([
      [a, 0n],
      [a, 1n],
      [a, 2n],
      [b, 0n],
      [b, 1n],
      [b, 2n],
      [a, 0n],
      [b, 0n],
    ]);
  });

  it('decides a group again when another process appended first', async () => {
    const { open: releaseAppend, opened: appendMay } = latch();
    const { open: reachedAppend, opened: atAppend } = latch();
    let conflicts = 0;
    const held: EventStore = {
      ...env.eventStore,
      append: async (name, events, expected) => {
        reachedAppend();
        await appendMay;
        try {
          return await env.eventStore.append(name, events, expected);
        } catch (error) {
          if (error instanceof WrongExpectedRevisionError) conflicts += 1;
          throw error;
        }
      },
    };
    const slow = groupedDecisions(held, counter)(stream, { amount: 10 }, metadata('slow'));
    // The slow process has loaded the empty stream and waits to append; the fast one appends first.
    await atAppend;
    await groupedDecisions(env.eventStore, counter)(stream, { amount: 1 }, metadata('fast'));
    releaseAppend();
    await slow;

    expect(conflicts).toBe(1);
    expect((await read()).map((event) => event.metadata.causationId)).toEqual(['fast', 'slow']);
  });
});
