import { expect } from 'vitest';
import type { Decider, DomainEvent } from '../commands/index.js';

/**
 * Given/when/then for a decider's specs: the history is folded with its evolve, the command decided on the result,
 * and the events it emits (or the error it throws) compared with what the test expects.
 */
export const givenHistory =
  <Command, State, Event extends DomainEvent>(decider: Decider<Command, State, Event>) =>
  (...history: Event[]) => ({
    when: (command: Command) => {
      const decide = () => decider.decide(command, history.reduce(decider.evolve, decider.initialState));
      return {
        thenEmits: (...expected: Event[]) => expect(decide()).toEqual(expected),
        thenEmitsNothing: () => expect(decide()).toEqual([]),
        thenFails: (error: abstract new (...args: never[]) => Error, message: string) => {
          expect(decide).toThrow(error);
          expect(decide).toThrow(message);
        },
      };
    },
  });
