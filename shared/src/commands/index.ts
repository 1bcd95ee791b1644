import {
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  WrongExpectedRevisionError,
} from '../eventstore/port.js';

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

export interface CommandOutcome<State, Event> {
  events: Event[];
  state: State;
  /** Null when the decision produced no events (nothing to append, nothing to wait for). */
  appended: AppendResult | null;
}

const MAX_ATTEMPTS = 5;

/**
 * Load → decide → append with the stream's expected revision. A concurrent writer makes the append
 * conflict; the command is then decided again on the fresh state, a bounded number of times.
 */
export async function handleCommand<Command, State, Event extends DomainEvent>(
  store: EventStore,
  stream: string,
  decider: Decider<Command, State, Event>,
  command: Command,
  metadata: EventMetadata,
): Promise<CommandOutcome<State, Event>> {
  for (let attempt = 1; ; attempt++) {
    let state = decider.initialState;
    let expected: ExpectedRevision = 'no_stream';
    for await (const recorded of store.readStream(stream)) {
      const event = decider.parse(recorded.type, recorded.data);
      if (event) state = decider.evolve(state, event);
      expected = recorded.revision;
    }
    const events = decider.decide(command, state);
    if (events.length === 0) return { events, state, appended: null };
    try {
      const appended = await store.append(
        stream,
        events.map((event) => ({ type: event.type, data: event.data, metadata })),
        expected,
      );
      return { events, state: events.reduce(decider.evolve, state), appended };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || attempt >= MAX_ATTEMPTS) throw error;
    }
  }
}
