import { orderStream } from '@licensestore/domain';
import { maskOpened, type OrderAsOfView, orderAsOf, recordedBy } from '@licensestore/domain/audit';
import type { EventStore, RecordedEvent } from '@licensestore/domain/events';
import type { RevealKey } from '../license-keys/reveal.js';

/**
 * The order as it stood at `at`, from its own stream's events recorded by then (folded in shared by the order
 * decider's evolve); keys masked to their last characters. Null before the order existed (or never).
 */
export async function orderAsOfView(
  eventStore: EventStore,
  orderId: string,
  at: Date,
  reveal: RevealKey,
): Promise<OrderAsOfView | null> {
  const events: RecordedEvent[] = [];
  for await (const event of eventStore.readStream(orderStream(orderId))) events.push(event);
  const state = orderAsOf(events, at);
  const last = recordedBy(events, at).at(-1);
  if (state.status === 'absent' || !last) return null;

  const mask = (sealed: string) => maskOpened(reveal(sealed, { orderId, asOf: at.toISOString() }));
  return {
    asOf: at.toISOString(),
    orderId: state.orderId,
    status: state.status,
    payment: state.payment,
    customer: state.customer,
    lines: state.lines.map((line) => ({
      ...line,
      keys: (state.keys[line.lineId] ?? []).map(({ keyId, key }) => ({ keyId, key: mask(key) })),
    })),
    total: state.total,
    currency: state.currency,
    createdAt: state.createdAt,
    fulfilled: state.fulfilled,
    reviewStatus: state.review,
    lastEvent: { type: last.type, recordedAt: last.createdAt.toISOString(), position: last.position },
  };
}
