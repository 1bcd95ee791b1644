import type { EventStore } from '../events/port.js';
import { parseOrderEvent } from './events.js';
import type { PlacedOrder } from './order.js';

/** `orderCustody-<uuid>` streams. */
export const ORDER_CUSTODY_CATEGORY = 'orderCustody';

/**
 * Where an order's showings of keys in clear (`LicenceKeysRevealed`) are kept, apart from the order's own stream:
 * reading keys must not move the revision an admin's If-Match names, nor lengthen the history every command on
 * the order folds. Showings recorded before this stream existed stay on the order's stream; readers take both.
 */
export const orderCustodyStream = (orderId: string) => `${ORDER_CUSTODY_CATEGORY}-${orderId}`;

/** The categories of the streams whose events are order events: the order's own (`order-`) and its custody stream. */
export const ORDER_EVENT_CATEGORIES: ReadonlySet<string> = new Set(['order', ORDER_CUSTODY_CATEGORY]);

/**
 * The order with the keys its custody stream shows in clear counted as out of the store, which its own stream
 * cannot know: a refund revokes such a key rather than putting it back in stock. The custody stream is read only
 * when some key the order holds is not already out (a sent delivery e-mail takes them all out).
 */
export async function withKeysShownInCustody(
  eventStore: EventStore,
  order: PlacedOrder,
): Promise<PlacedOrder> {
  const out = new Set(order.keysOutOfStore);
  const held = [
    ...Object.values(order.keys).flatMap((keys) => keys.map((key) => key.keyId)),
    // A reopened order gives back the keys it gave up, which may have been shown before it was cancelled.
    ...Object.values(order.keysGivenUp).flat(),
  ];
  if (held.every((keyId) => out.has(keyId))) return order;
  for await (const recorded of eventStore.readStream(orderCustodyStream(order.orderId))) {
    const event = parseOrderEvent(recorded.type, recorded.data);
    if (event?.type === 'LicenceKeysRevealed') for (const keyId of event.data.keyIds) out.add(keyId);
  }
  return out.size === order.keysOutOfStore.length ? order : { ...order, keysOutOfStore: [...out] };
}
