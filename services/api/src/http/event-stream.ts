import type { Logger } from '@licensestore/platform/logging';
import type { Response } from 'express';

export interface EventStreamOptions {
  /** How long a write may wait for the client to read before the connection is cut. */
  drainTimeoutMs: number;
  /** How long the stream lasts before it ends (the browser's EventSource then reconnects); none by default. */
  maxAgeMs?: number;
  /** What a browser waits before reconnecting a dropped stream. */
  retryMs: number;
  /** Who streams, for the log line of a stream cut (e.g. 'order events'). */
  label: string;
  logger: Logger;
}

/** The raw side of a server-sent event stream: its head goes out with `open`, text with `write`. */
export interface EventStreamWriter {
  open: () => void;
  write: (text: string) => void;
  end: () => void;
}

/**
 * Server-sent events on `res`. A write the client leaves unread for `drainTimeoutMs` cuts the connection, and the
 * stream ends after `maxAgeMs`: a client that stopped reading keeps neither a socket nor its buffers.
 */
export function eventStreamWriter(res: Response, options: EventStreamOptions): EventStreamWriter {
  let stalled: NodeJS.Timeout | null = null;
  const end = () => {
    if (!res.writableEnded) res.end();
  };
  const expiry = options.maxAgeMs === undefined ? null : setTimeout(end, options.maxAgeMs);
  res.on('close', () => {
    if (expiry) clearTimeout(expiry);
    if (stalled) clearTimeout(stalled);
  });
  const write = (text: string) => {
    if (res.writableEnded || res.destroyed) return;
    if (res.write(text) || stalled) return;
    stalled = setTimeout(() => {
      options.logger.warn(
        { requestId: res.req.requestId },
        `${options.label}: the client stopped reading; stream cut`,
      );
      res.destroy();
    }, options.drainTimeoutMs);
    res.once('drain', () => {
      if (stalled) clearTimeout(stalled);
      stalled = null;
    });
  };
  return {
    open: () => {
      res.status(200).set({
        'Content-Type': 'text/event-stream; charset=utf-8',
        // Names, addresses, license keys, what the store is doing: no cache anywhere keeps them.
        'Cache-Control': 'no-store',
        Connection: 'keep-alive',
        // nginx and similar would otherwise hold the events back in their buffers.
        'X-Accel-Buffering': 'no',
      });
      write(`retry: ${options.retryMs}\n\n`);
    },
    write,
    end,
  };
}
