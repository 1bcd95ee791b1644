import type { Decider, DomainEvent } from '@licensestore/shared/commands';
import {
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type Position,
  WrongExpectedRevisionError,
} from '@licensestore/shared/eventstore';

export interface LoadedStream<State> {
  state: State;
  /** What an append after this read expects. */
  revision: ExpectedRevision;
  /** Position of the stream's last event: what a reader must have passed to see this state. */
  position: Position | null;
  /** Ids of the stored events by type (the last of each), for causation chains. */
  eventIds: Map<string, string>;
}

export async function loadStream<Command, State, Event extends DomainEvent>(
  store: EventStore,
  stream: string,
  decider: Decider<Command, State, Event>,
): Promise<LoadedStream<State>> {
  let state = decider.initialState;
  let revision: ExpectedRevision = 'no_stream';
  let position: Position | null = null;
  const eventIds = new Map<string, string>();
  for await (const recorded of store.readStream(stream)) {
    const event = decider.parse(recorded.type, recorded.data);
    if (event) state = decider.evolve(state, event);
    revision = recorded.revision;
    position = recorded.position;
    eventIds.set(recorded.type, recorded.id);
  }
  return { state, revision, position, eventIds };
}

export interface CommandResult<State, Event> {
  state: State;
  /** What this call appended; empty when the decision was already taken (an idempotent retry). */
  events: Event[];
  /** Where the stream's latest event sits, whether this call wrote it or an earlier one did. */
  position: Position | null;
}

const MAX_ATTEMPTS = 5;

/**
 * Load → decide → append with the expected revision, deciding again on a conflict (bounded). Unlike the
 * shared `handleCommand`, it also reports the stream's position when nothing was appended, so a retried
 * command waits for the read model exactly like the first one.
 */
export async function runCommand<Command, State, Event extends DomainEvent>(
  store: EventStore,
  stream: string,
  decider: Decider<Command, State, Event>,
  command: Command,
  metadata: EventMetadata,
  options: { eventId?: string } = {},
): Promise<CommandResult<State, Event>> {
  for (let attempt = 1; ; attempt++) {
    const loaded = await loadStream(store, stream, decider);
    const events = decider.decide(command, loaded.state);
    if (events.length === 0) return { state: loaded.state, events, position: loaded.position };
    try {
      const appended = await store.append(
        stream,
        events.map((event, index) => ({
          ...(options.eventId && index === 0 ? { id: options.eventId } : {}),
          type: event.type,
          data: event.data,
          metadata,
        })),
        loaded.revision,
      );
      return { state: events.reduce(decider.evolve, loaded.state), events, position: appended.position };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || attempt >= MAX_ATTEMPTS) throw error;
    }
  }
}
