import {
  checkoutStream,
  licenseKeysStream,
  orderCustodyStream,
  orderStream,
  parseOrderEvent,
} from '@licensestore/domain';
import {
  type AuditEventView,
  maskKeys,
  maskOpened,
  type OrderHistoryEntry,
} from '@licensestore/domain/audit';
import type { EventStore, RecordedEvent } from '@licensestore/domain/events';
import type { AuditTables, Database } from '@licensestore/platform/db';
import type { Kysely } from 'kysely';
import { auditEventOf, withAdminNames } from '../audit/events.js';
import type { RevealKey } from '../license-keys/reveal.js';

/** One recorded event of an order's history, as the back office shows it (keys masked). */
export type TimelineEntry = OrderHistoryEntry;

/** At most this many events of other streams per correlation: a bulk key import shares one correlation id. */
const CORRELATED_LIMIT = 200;

async function readAll(eventStore: EventStore, stream: string): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  for await (const event of eventStore.readStream(stream)) events.push(event);
  return events;
}

const aboutOrder = (orderId: string) => (event: RecordedEvent) =>
  (event.data as { orderId?: unknown } | null)?.orderId === orderId;

const byPosition = (a: { position: string }, b: { position: string }) =>
  a.position < b.position ? -1 : a.position > b.position ? 1 : 0;

/**
 * Events of other streams recorded under the correlations of the order's own events (the admin request that
 * added the keys a waiting order then got, the request that asked for a resend), from the `audit-log` read
 * model's correlation index: no scan of the log. Their keys are withheld there (that role holds no key secret).
 */
async function correlatedEvents(db: Kysely<Database>, own: RecordedEvent[]): Promise<AuditEventView[]> {
  const correlations = [...new Set(own.map((event) => event.metadata.correlationId))];
  const seen = new Set(own.map((event) => event.id));
  const perCorrelation = await Promise.all(
    correlations.map((correlationId) =>
      db
        .withTables<AuditTables>()
        .selectFrom('audit_log')
        .selectAll()
        .where('correlation_id', '=', correlationId)
        .orderBy('position')
        .limit(CORRELATED_LIMIT)
        .execute(),
    ),
  );
  return perCorrelation
    .flat()
    .filter((row) => !seen.has(row.event_id))
    .map(auditEventOf);
}

/**
 * The order's own events in no particular order: its `order-` stream, its `orderCustody-` stream (each showing of
 * its keys in clear; older showings are on the order's stream), the `checkout-` stream that became it, and the
 * inventory events of its products that asked for and gave it keys. The order stream names the other streams
 * (OrderCaptured carries the PayPal order id and the product of each line), so nothing is searched: one read per
 * stream, in parallel. Inventory streams hold every order of a product, so they are filtered by `data.orderId`.
 * Null when there is no such order.
 */
export async function orderOwnEvents(
  eventStore: EventStore,
  orderId: string,
): Promise<RecordedEvent[] | null> {
  const orderEvents = await readAll(eventStore, orderStream(orderId));
  const captured = orderEvents
    .map((event) => parseOrderEvent(event.type, event.data))
    .find((event) => event?.type === 'OrderCaptured');
  if (captured?.type !== 'OrderCaptured') return null;

  const productIds = [...new Set(captured.data.lines.map((line) => line.productId))];
  const [checkoutEvents, custodyEvents, ...inventories] = await Promise.all([
    readAll(eventStore, checkoutStream(captured.data.paypalOrderId)),
    readAll(eventStore, orderCustodyStream(orderId)),
    ...productIds.map((productId) => readAll(eventStore, licenseKeysStream(productId))),
  ]);
  return [
    ...orderEvents,
    ...custodyEvents,
    ...checkoutEvents,
    ...inventories.flat().filter(aboutOrder(orderId)),
  ];
}

/**
 * The order's whole history, oldest first: its own events (`orderOwnEvents`) and every other event recorded under
 * the same correlations (`correlated`), from one indexed lookup per correlation. Null when there is no such order.
 */
export async function orderTimeline(
  { eventStore, db }: { eventStore: EventStore; db: Kysely<Database> },
  orderId: string,
  reveal: RevealKey,
): Promise<TimelineEntry[] | null> {
  const own = await orderOwnEvents(eventStore, orderId);
  if (!own) return null;
  const correlated = await correlatedEvents(db, own);

  const entries: TimelineEntry[] = [
    ...own.map((event) => ({
      id: event.id,
      position: event.position,
      stream: event.streamId,
      revision: Number(event.revision),
      type: event.type,
      recordedAt: event.createdAt.toISOString(),
      actor: event.metadata.actor,
      correlationId: event.metadata.correlationId,
      causationId: event.metadata.causationId,
      data: maskKeys(event.data, (sealed) => maskOpened(reveal(sealed, { orderId, eventId: event.id }))),
      correlated: false,
    })),
    ...correlated.map((event) => ({ ...event, correlated: true })),
  ];
  return withAdminNames(db, entries.sort(byPosition));
}
