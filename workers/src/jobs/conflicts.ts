import { setTimeout as delay } from 'node:timers/promises';
import { type Backoff, backoffDelay } from '@licensestore/domain/backoff';
import {
  catchUpStream,
  type Decider,
  type DomainEvent,
  handleCommand,
  type LoadedStream,
  unloadedStream,
} from '@licensestore/domain/commands';
import {
  type EventStore,
  type NewEventMetadata,
  WrongExpectedRevisionError,
} from '@licensestore/domain/events';
import { timeOrderedId } from '@licensestore/platform/ids';

/**
 * Hot streams whose folded state a process keeps; the least recently decided is forgotten first. Bounded by count
 * and by the events folded into them: a product's inventory grows with every key it ever had (hundreds of bytes a
 * key), so after a year a thousand of them would not fit a worker's heap. A stream forgotten is read again in full
 * on its next decision.
 */
export interface KeptStreams {
  streams: number;
  events: number;
}
const KEPT_STREAMS: KeptStreams = { streams: 1_000, events: 1_000_000 };
const ROUNDS = 10;
const BACKOFF: Backoff = { firstMs: 20, maxMs: 500, jitter: 'full' };

/**
 * Runs `decide` (load, decide, append with the expected revision) until it stops conflicting. Racing deciders that
 * lose together would collide again if they retried at once; waiting a random, growing while (full jitter) spreads
 * them out, and costs far less than failing the job into BullMQ's backoff, which starts at a second. Bounded: about
 * 2.6 s of waiting at most, then the conflict fails the job and BullMQ retries it.
 */
export async function retryOnConflict<T>(decide: () => Promise<T>): Promise<T> {
  for (let round = 1; ; round++) {
    try {
      return await decide();
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || round >= ROUNDS) throw error;
      await delay(backoffDelay(round, BACKOFF));
    }
  }
}

/** A command on a stream that is rarely contended (an order): handleCommand, with jittered retries on conflict. */
export const decideOnStream = <Command, State, Event extends DomainEvent>(
  eventStore: EventStore,
  stream: string,
  decider: Decider<Command, State, Event>,
  command: Command,
  metadata: NewEventMetadata,
) => retryOnConflict(() => handleCommand(eventStore, stream, decider, command, metadata));

interface Waiting<Command, Event> {
  command: Command;
  metadata: NewEventMetadata;
  resolve(events: Event[]): void;
  reject(error: unknown): void;
}

/**
 * Group commit for a hot stream (a popular product's inventory). The commands this process's jobs send to one
 * stream while a decision on it is in flight wait for it, then are decided together, in arrival order, on one load,
 * and appended in one append under the stream's expected revision. One decision per stream per process is in
 * flight, so a process never races itself; between processes the expected revision decides, as it would on
 * EventStoreDB, and the loser decides its whole group again (retryOnConflict). A command the decider refuses fails
 * alone. Each event keeps the metadata of the command that caused it.
 *
 * Each decision starts from the state this process last knew of the stream (read, or left by its own append) and
 * folds only what other processes appended since, so a decision costs the stream's new events, not its whole history;
 * the decider's evolve must therefore never mutate a state (the inventory's is made of immutable.js collections). A
 * conflict means the kept state is behind, and the retry reads the events it missed.
 */
export function groupedDecisions<Command, State, Event extends DomainEvent>(
  eventStore: EventStore,
  decider: Decider<Command, State, Event>,
  bounds: KeptStreams = KEPT_STREAMS,
) {
  /** Present while a decision on the stream is in flight: the commands that arrived meanwhile. */
  const waiting = new Map<string, Waiting<Command, Event>[]>();
  /** The streams' states as last read, least recently decided first. */
  const kept = new Map<string, LoadedStream<State>>();

  let keptEvents = 0;
  const eventsIn = (loaded: LoadedStream<State> | undefined) =>
    loaded === undefined || loaded.revision === 'no_stream' ? 0 : Number(loaded.revision) + 1;

  /**
   * Keeps `loaded` as the stream's latest known state, forgetting the least recently decided streams past the
   * bounds (never this one, however large).
   */
  function keep(stream: string, loaded: LoadedStream<State>) {
    keptEvents -= eventsIn(kept.get(stream));
    kept.delete(stream);
    kept.set(stream, loaded);
    keptEvents += eventsIn(loaded);
    for (const [oldest, state] of kept) {
      if (oldest === stream || (kept.size <= bounds.streams && keptEvents <= bounds.events)) break;
      kept.delete(oldest);
      keptEvents -= eventsIn(state);
    }
  }

  async function decideGroup(stream: string, group: readonly Waiting<Command, Event>[]) {
    const loaded = await catchUpStream(
      eventStore,
      stream,
      decider,
      kept.get(stream) ?? unloadedStream(decider),
    );
    keep(stream, loaded);
    let state = loaded.state;
    const outcomes = group.map(
      (entry): { entry: typeof entry; events: Event[] } | { entry: typeof entry; error: unknown } => {
        try {
          const events = decider.decide(entry.command, state);
          state = events.reduce(decider.evolve, state);
          return { entry, events };
        } catch (error) {
          return { entry, error };
        }
      },
    );
    const appended = outcomes.flatMap((outcome) =>
      'events' in outcome
        ? outcome.events.map((event) => ({
            id: timeOrderedId(),
            type: event.type,
            data: event.data,
            metadata: outcome.entry.metadata,
          }))
        : [],
    );
    if (appended.length > 0) {
      const result = await eventStore.append(stream, appended, loaded.revision);
      // What this process appended is already folded into `state`: the next decision need not read it back.
      const causes = new Map(loaded.causes);
      for (const event of appended) {
        causes.set(event.type, { eventId: event.id, correlationId: event.metadata.correlationId });
      }
      keep(stream, { state, revision: result.nextExpectedRevision, position: result.position, causes });
    }
    return outcomes;
  }

  async function drain(stream: string) {
    for (;;) {
      const group = waiting.get(stream) ?? [];
      if (group.length === 0) {
        waiting.delete(stream);
        return;
      }
      waiting.set(stream, []);
      try {
        for (const outcome of await retryOnConflict(() => decideGroup(stream, group))) {
          if ('events' in outcome) outcome.entry.resolve(outcome.events);
          else outcome.entry.reject(outcome.error);
        }
      } catch (error) {
        for (const entry of group) entry.reject(error);
      }
    }
  }

  /** Resolves with the events decided for this command (none when it changed nothing). */
  return (stream: string, command: Command, metadata: NewEventMetadata) =>
    new Promise<Event[]>((resolve, reject) => {
      const entry = { command, metadata, resolve, reject };
      const queued = waiting.get(stream);
      if (queued) {
        queued.push(entry);
      } else {
        waiting.set(stream, [entry]);
        void drain(stream);
      }
    });
}
