import type { OrderItemView, OrderView } from '@licensestore/domain';
import { type EventStream, openEventStream } from './event-stream.js';

export interface Snapshot {
  order: OrderView;
  items: OrderItemView[];
}

/** A page's EventSource, reduced to what the tests read: the snapshots in arrival order, and the stream's end. */
export interface Stream extends EventStream<Snapshot> {
  /** The `id:` of the last message so far, which an EventSource sends back as Last-Event-ID when it reconnects. */
  lastEventId: () => string | undefined;
}

/**
 * Opens GET /api/orders/:id/events as a page would, with the page's cookies when given, and as its EventSource
 * reconnecting does when `lastEventId` is given.
 */
export async function openStream(url: string, cookie?: string, lastEventId?: string): Promise<Stream> {
  let lastId: string | undefined;
  const stream = await openEventStream<Snapshot>(
    url,
    {
      ...(cookie ? { cookie } : {}),
      ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
    },
    ({ event, data, id }) => {
      if (id) lastId = id;
      return event === 'snapshot' && data ? (JSON.parse(data) as Snapshot) : undefined;
    },
  );
  return { ...stream, lastEventId: () => lastId };
}
