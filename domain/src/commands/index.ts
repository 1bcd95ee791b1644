import { PreconditionFailedError } from '../errors/index.js';
import {
  type AppendResult,
  type EventStore,
  type NewEventMetadata,
  type Position,
  WrongExpectedRevisionError,
} from '../events/port.js';

export interface DomainEvent {
  type: string;
  data: unknown;
}

export interface Decider<Command, State, Event extends DomainEvent> {
  initialState: State;
  decide(command: Command, state: State): Event[];
  evolve(state: State, event: Event): State;
  /** Validates a stored event (zod at the boundary); null for event types this decider does not own. */
  parse(type: string, data: unknown): Event | null;
}

export interface LoadedStream<State> {
  state: State;
  /** What an append after this read expects: the last event's revision, or no_stream. */
  revision: 'no_stream' | bigint;
  /** Position of the stream's last event: what a reader must have passed to see this state. */
  position: Position | null;
  /** The stored events by type (the last of each): what an event caused by one of them names as its cause. */
  causes: Map<string, EventCause>;
}

/** A stored event as the events it causes name it: its id, and the correlation id they carry on. */
export interface EventCause {
  eventId: string;
  correlationId: string;
}

/** A stream before its first event: what loading starts from. */
export const unloadedStream = <State>(decider: { initialState: State }): LoadedStream<State> => ({
  state: decider.initialState,
  revision: 'no_stream',
  position: null,
  causes: new Map(),
});

/** Folds a stream into the decider's state; events of types the decider does not own are skipped. */
export const loadStream = <Command, State, Event extends DomainEvent>(
  store: EventStore,
  stream: string,
  decider: Decider<Command, State, Event>,
): Promise<LoadedStream<State>> => catchUpStream(store, stream, decider, unloadedStream(decider));

/**
 * Folds the events appended after `loaded` into it: the state a whole load would give, for the price of the stream's
 * tail. `loaded` is left as it was, so a caller may keep it (with a decider whose evolve never mutates its state).
 */
export async function catchUpStream<Command, State, Event extends DomainEvent>(
  store: EventStore,
  stream: string,
  decider: Decider<Command, State, Event>,
  loaded: LoadedStream<State>,
): Promise<LoadedStream<State>> {
  let { state, revision, position } = loaded;
  const causes = new Map(loaded.causes);
  const from = revision === 'no_stream' ? 0n : revision + 1n;
  for await (const recorded of store.readStream(stream, from)) {
    // Folding an event twice would corrupt the state (a key assigned twice): an event store that ignores the start
    // revision costs a longer read, never a wrong state.
    if (recorded.revision < from) continue;
    const event = decider.parse(recorded.type, recorded.data);
    if (event) state = decider.evolve(state, event);
    revision = recorded.revision;
    position = recorded.position;
    causes.set(recorded.type, { eventId: recorded.id, correlationId: recorded.metadata.correlationId });
  }
  return { state, revision, position, causes };
}

export interface CommandOutcome<State, Event> {
  events: Event[];
  state: State;
  /** Null when the decision produced no events (nothing appended by this call). */
  appended: AppendResult | null;
  /**
   * Where the stream's latest event sits, whether this call wrote it or an earlier one did: a retried command
   * waits for the read model exactly like the first one.
   */
  position: Position | null;
}

const MAX_ATTEMPTS = 5;

export interface CommandOptions {
  /**
   * The revision the caller saw when it chose this command (an If-Match). The command must then be decided on that
   * state or not at all: a stream that has moved on refuses it, never decides it again on a state nobody looked at.
   */
  expectedRevision?: bigint;
}

const staleRevision = (expected: bigint, actual: bigint | 'no_stream') =>
  new PreconditionFailedError(
    `This was changed by someone else since you loaded it (revision ${expected}, now ${actual === 'no_stream' ? 'none' : actual}); reload to see the changes`,
  );

/**
 * Load → decide → append with the stream's expected revision. A concurrent writer makes the append
 * conflict; the command is then decided again on the fresh state, a bounded number of times, unless the caller
 * named the revision it decided on, which makes any change since a refusal.
 */
export async function handleCommand<Command, State, Event extends DomainEvent>(
  store: EventStore,
  stream: string,
  decider: Decider<Command, State, Event>,
  command: Command,
  metadata: NewEventMetadata,
  { expectedRevision }: CommandOptions = {},
): Promise<CommandOutcome<State, Event>> {
  for (let attempt = 1; ; attempt++) {
    const loaded = await loadStream(store, stream, decider);
    if (expectedRevision !== undefined && loaded.revision !== expectedRevision)
      throw staleRevision(expectedRevision, loaded.revision);
    const events = decider.decide(command, loaded.state);
    if (events.length === 0)
      return { events, state: loaded.state, appended: null, position: loaded.position };
    try {
      const appended = await store.append(
        stream,
        events.map((event) => ({ type: event.type, data: event.data, metadata })),
        loaded.revision,
      );
      return {
        events,
        state: events.reduce(decider.evolve, loaded.state),
        appended,
        position: appended.position,
      };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      if (expectedRevision !== undefined) throw staleRevision(expectedRevision, error.actual);
      if (attempt >= MAX_ATTEMPTS) throw error;
    }
  }
}
