/** One message of a server-sent event stream: a named event with its JSON data, or a comment. */
export type LiveMessage = { event: string; data: unknown } | { comment: string };

/** The back office's EventSource, reduced to what the tests read: its messages in arrival order, and its end. */
export interface LiveStream {
  response: Response;
  /** The next message not yet taken (waits for it). */
  next: () => Promise<LiveMessage>;
  /** The next event named `name`, passing over the messages before it. */
  nextEvent: (name: string) => Promise<unknown>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  leave: () => void;
}

/** Opens GET /api/admin/live as the back office does, with the session's cookie. */
export async function openLiveStream(url: string, cookie?: string): Promise<LiveStream> {
  const leaving = new AbortController();
  const response = await fetch(`${url}/api/admin/live`, {
    signal: leaving.signal,
    headers: { accept: 'text/event-stream', ...(cookie ? { cookie } : {}) },
  });
  const queued: LiveMessage[] = [];
  const waiting: Array<(message: LiveMessage) => void> = [];
  const deliver = (message: LiveMessage) => {
    const waiter = waiting.shift();
    if (waiter) waiter(message);
    else queued.push(message);
  };
  const parse = (block: string): LiveMessage | null => {
    const lines = block.split('\n');
    const event = lines.find((line) => line.startsWith('event: '))?.slice(7);
    const data = lines.find((line) => line.startsWith('data: '))?.slice(6);
    if (event) return { event, data: data === undefined ? undefined : JSON.parse(data) };
    const comment = lines.find((line) => line.startsWith(':'));
    return comment ? { comment: comment.slice(1).trim() } : null;
  };
  const read = async () => {
    if (!response.body || !response.ok) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const message = parse(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
          if (message) deliver(message);
        }
      }
    } catch (error) {
      if (!leaving.signal.aborted) throw error;
    }
  };
  const next = () =>
    queued.length > 0
      ? Promise.resolve(queued.shift() as LiveMessage)
      : new Promise<LiveMessage>((resolve) => waiting.push(resolve));
  return {
    response,
    next,
    nextEvent: async (name) => {
      for (;;) {
        const message = await next();
        if ('event' in message && message.event === name) return message.data;
      }
    },
    ended: read(),
    leave: () => leaving.abort(),
  };
}
