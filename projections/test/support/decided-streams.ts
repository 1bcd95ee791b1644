import type { Decider, DomainEvent } from '@licensestore/domain/commands';
import type { ExpectedRevision } from '@licensestore/domain/events';

/**
 * Streams decided in memory by the real deciders, as a generated history is: each stream's state and revision, and
 * for each decision the append that records its events with the stream's exact expected revision.
 */
export function decidedStreams() {
  const streams = new Map<string, { state: unknown; revision: bigint }>();
  return {
    decide<Command, State, Event extends DomainEvent>(
      stream: string,
      decider: Decider<Command, State, Event>,
      command: Command,
    ) {
      const entity = streams.get(stream) ?? { state: decider.initialState, revision: -1n };
      const events = decider.decide(command, entity.state as State);
      const expected: ExpectedRevision = entity.revision < 0n ? 'no_stream' : entity.revision;
      entity.state = events.reduce(decider.evolve, entity.state as State);
      entity.revision += BigInt(events.length);
      streams.set(stream, entity);
      return { append: { stream, expected, events }, events, state: entity.state as State };
    },
    /** The state of a stream decided on so far; undefined for one never decided on (or forgotten). */
    stateOf: (stream: string): unknown => streams.get(stream)?.state,
    /** Drops a stream no decision will touch again, so a long history does not hold it in memory. */
    forget: (stream: string) => streams.delete(stream),
    forgetAll: () => streams.clear(),
  };
}
