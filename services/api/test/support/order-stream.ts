import type { OrderItemView, OrderView } from '@licensestore/shared';

export interface Snapshot {
  order: OrderView;
  items: OrderItemView[];
}

/** A page's EventSource, reduced to what the tests read: the snapshots in arrival order, and the stream's end. */
export interface Stream {
  response: Response;
  /** The next snapshot not yet taken (waits for it). */
  next: () => Promise<Snapshot>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  leave: () => void;
  /** The `id:` of the last message so far, which an EventSource sends back as Last-Event-ID when it reconnects. */
  lastEventId: () => string | undefined;
}

/**
 * Opens GET /api/orders/:id/events as a page would, with the page's cookies when given, and as its EventSource
 * reconnecting does when `lastEventId` is given.
 */
export async function openStream(url: string, cookie?: string, lastEventId?: string): Promise<Stream> {
  const leaving = new AbortController();
  const response = await fetch(url, {
    signal: leaving.signal,
    headers: {
      accept: 'text/event-stream',
      ...(cookie ? { cookie } : {}),
      ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
    },
  });
  let lastId: string | undefined;
  const queued: Snapshot[] = [];
  const waiting: Array<(snapshot: Snapshot) => void> = [];
  const deliver = (snapshot: Snapshot) => {
    const waiter = waiting.shift();
    if (waiter) waiter(snapshot);
    else queued.push(snapshot);
  };
  const read = async () => {
    if (!response.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const message = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = message.split('\n').find((line) => line.startsWith('data: '));
          const id = message.split('\n').find((line) => line.startsWith('id: '));
          if (id) lastId = id.slice(4);
          if (message.includes('event: snapshot') && data) deliver(JSON.parse(data.slice(6)));
        }
      }
    } catch (error) {
      if (!leaving.signal.aborted) throw error;
    }
  };
  return {
    response,
    next: () =>
      queued.length > 0
        ? Promise.resolve(queued.shift() as Snapshot)
        : new Promise<Snapshot>((resolve) => waiting.push(resolve)),
    ended: read(),
    leave: () => leaving.abort(),
    lastEventId: () => lastId,
  };
}
