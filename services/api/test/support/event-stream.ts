/** One message of a server-sent event stream, by its fields (each absent when the message has no such line). */
export interface EventStreamMessage {
  event?: string;
  data?: string;
  id?: string;
  comment?: string;
}

/** An EventSource reduced to what the tests read: what `take` kept of its messages, in arrival order, and its end. */
export interface EventStream<T> {
  response: Response;
  /** The next kept message not yet taken (waits for it). */
  next: () => Promise<T>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  leave: () => void;
}

const fieldOf = (lines: string[], prefix: string) =>
  lines.find((line) => line.startsWith(prefix))?.slice(prefix.length);

function parse(block: string): EventStreamMessage {
  const lines = block.split('\n');
  return {
    event: fieldOf(lines, 'event: '),
    data: fieldOf(lines, 'data: '),
    id: fieldOf(lines, 'id: '),
    comment: fieldOf(lines, ':')?.trim(),
  };
}

/**
 * Opens a server-sent event stream with `headers`, and reads it as its messages arrive: `take` turns each into what
 * `next` answers, or passes it over (undefined). A refused stream's body is left for the test to read.
 */
export async function openEventStream<T>(
  url: string,
  headers: Record<string, string>,
  take: (message: EventStreamMessage) => T | undefined,
): Promise<EventStream<T>> {
  const leaving = new AbortController();
  const response = await fetch(url, {
    signal: leaving.signal,
    headers: { accept: 'text/event-stream', ...headers },
  });
  const queued: T[] = [];
  const waiting: Array<(kept: T) => void> = [];
  const deliver = (kept: T) => {
    const waiter = waiting.shift();
    if (waiter) waiter(kept);
    else queued.push(kept);
  };
  const read = async () => {
    if (!response.body || !response.ok) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const kept = take(parse(buffer.slice(0, end)));
          buffer = buffer.slice(end + 2);
          if (kept !== undefined) deliver(kept);
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
        ? Promise.resolve(queued.shift() as T)
        : new Promise<T>((resolve) => waiting.push(resolve)),
    ended: read(),
    leave: () => leaving.abort(),
  };
}
