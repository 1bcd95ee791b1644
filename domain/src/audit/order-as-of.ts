import type { RecordedEvent } from '../events/port.js';
import { parseOrderEvent } from '../orders/events.js';
import { evolveOrder, initialOrderState, type OrderState } from '../orders/order.js';

/**
 * The events of the log as it stood at `at`: those recorded up to then, in log order. A log is a prefix-closed
 * history, so this stops at the first event recorded later rather than skipping it and reading on.
 */
export function recordedBy<E extends Pick<RecordedEvent, 'createdAt'>>(events: Iterable<E>, at: Date): E[] {
  const prefix: E[] = [];
  for (const event of events) {
    if (event.createdAt > at) break;
    prefix.push(event);
  }
  return prefix;
}

/**
 * An order's state as of `at`: its own stream's events recorded by then, folded with the decider's `evolveOrder`
 * (so the past is computed by the very rules that decide the present). Absent before the capture.
 */
export function orderAsOf(
  stream: Iterable<Pick<RecordedEvent, 'type' | 'data' | 'createdAt'>>,
  at: Date,
): OrderState {
  let state = initialOrderState;
  for (const event of recordedBy(stream, at)) {
    const parsed = parseOrderEvent(event.type, event.data);
    if (parsed) state = evolveOrder(state, parsed);
  }
  return state;
}
