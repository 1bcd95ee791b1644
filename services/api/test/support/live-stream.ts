import { type EventStream, openEventStream } from './event-stream.js';

/** One message of a server-sent event stream: a named event with its JSON data, or a comment. */
export type LiveMessage = { event: string; data: unknown } | { comment: string };

/** The back office's EventSource, reduced to what the tests read: its messages in arrival order, and its end. */
export interface LiveStream extends EventStream<LiveMessage> {
  /** The next event named `name`, passing over the messages before it. */
  nextEvent: (name: string) => Promise<unknown>;
}

/** Opens GET /api/admin/live as the back office does, with the session's cookie. */
export async function openLiveStream(url: string, cookie?: string): Promise<LiveStream> {
  const stream = await openEventStream<LiveMessage>(
    `${url}/api/admin/live`,
    cookie ? { cookie } : {},
    ({ event, data, comment }) => {
      if (event) return { event, data: data === undefined ? undefined : JSON.parse(data) };
      return comment === undefined ? undefined : { comment };
    },
  );
  return {
    ...stream,
    nextEvent: async (name) => {
      for (;;) {
        const message = await stream.next();
        if ('event' in message && message.event === name) return message.data;
      }
    },
  };
}
