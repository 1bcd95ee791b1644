import {
  checkoutStream,
  licenceKeysStream,
  orderStream,
  parseOrderEvent,
  sealedKeySchema,
} from '@licensestore/shared';
import type { Database } from '@licensestore/shared/db';
import type { Actor, EventStore, RecordedEvent } from '@licensestore/shared/eventstore';
import type { Kysely } from 'kysely';
import { isUuid } from '../http/ids.js';
import type { RevealKey } from '../licence-keys/reveal.js';

/** One recorded event of an order's history, as the back office shows it (keys masked). */
export interface TimelineEntry {
  id: string;
  /** Global position: entries of different streams sort by it (adapters encode it string-comparable). */
  position: string;
  stream: string;
  revision: number;
  type: string;
  recordedAt: string;
  /** `name`: an admin's username (events carry the admin's id, which tells a person nothing). */
  actor: Actor & { name?: string };
  data: unknown;
}

/** What is left of a key in the timeline: its last characters, enough to match it against a customer's e-mail. */
export const maskedKey = (key: string) => `XXXXX-…-${key.slice(-4)}`;
/** A sealed key that does not open (another secret, damaged): its existence is history, its text is gone. */
export const UNREADABLE_KEY = 'XXXXX-…-????';

/**
 * Every sealed key anywhere in the event's data replaced by its mask. Matching on the sealed form rather than on
 * field names keeps the timeline safe for event types added later: no sealed or clear key ever leaves here.
 */
function maskKeys(value: unknown, reveal: (sealed: string) => string | null): unknown {
  if (typeof value === 'string') {
    if (!sealedKeySchema.safeParse(value).success) return value;
    const key = reveal(value);
    return key === null ? UNREADABLE_KEY : maskedKey(key);
  }
  if (Array.isArray(value)) return value.map((item) => maskKeys(item, reveal));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, maskKeys(item, reveal)]));
  }
  return value;
}

/** Usernames of the admins who acted; an admin deleted since keeps only the id. */
async function adminNames(db: Kysely<Database>, events: RecordedEvent[]): Promise<Map<string, string>> {
  const ids = [
    ...new Set(
      events.filter((event) => event.metadata.actor.type === 'admin').map((event) => event.metadata.actor.id),
    ),
  ].filter(isUuid);
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('admin_users').select(['id', 'username']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, row.username]));
}

async function readAll(eventStore: EventStore, stream: string): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  for await (const event of eventStore.readStream(stream)) events.push(event);
  return events;
}

const aboutOrder = (orderId: string) => (event: RecordedEvent) =>
  (event.data as { orderId?: unknown } | null)?.orderId === orderId;

/**
 * The order's whole history, oldest first: its `order-` stream, the `checkout-` stream that became it, and the
 * inventory events of its products that asked for and gave it keys. The order stream names the other streams
 * (OrderCaptured carries the PayPal order id and the product of each line), so nothing is searched: one read per
 * stream, in parallel. Inventory streams hold every order of a product, so they are filtered by `data.orderId`;
 * correlation ids would not do, since keys added by an admin serve waiting orders under the admin's request.
 * Null when there is no such order.
 */
export async function orderTimeline(
  { eventStore, db }: { eventStore: EventStore; db: Kysely<Database> },
  orderId: string,
  reveal: RevealKey,
): Promise<TimelineEntry[] | null> {
  const orderEvents = await readAll(eventStore, orderStream(orderId));
  const captured = orderEvents
    .map((event) => parseOrderEvent(event.type, event.data))
    .find((event) => event?.type === 'OrderCaptured');
  if (captured?.type !== 'OrderCaptured') return null;

  const productIds = [...new Set(captured.data.lines.map((line) => line.productId))];
  const [checkoutEvents, ...inventories] = await Promise.all([
    readAll(eventStore, checkoutStream(captured.data.paypalOrderId)),
    ...productIds.map((productId) => readAll(eventStore, licenceKeysStream(productId))),
  ]);
  const events = [...orderEvents, ...checkoutEvents, ...inventories.flat().filter(aboutOrder(orderId))];
  events.sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0));
  const admins = await adminNames(db, events);

  return events.map((event) => ({
    id: event.id,
    position: event.position,
    stream: event.streamId,
    revision: Number(event.revision),
    type: event.type,
    recordedAt: event.createdAt.toISOString(),
    actor: { ...event.metadata.actor, name: admins.get(event.metadata.actor.id) },
    data: maskKeys(event.data, (sealed) => reveal(sealed, { orderId, eventId: event.id })),
  }));
}
