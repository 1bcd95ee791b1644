import type { DatabaseHandle } from '@licensestore/platform/db';
import type { Logger } from '@licensestore/platform/logging';
import { Router } from 'express';
import { requireBackOffice, sessionToken } from '../auth/guards.js';
import type { SessionStore } from '../auth/sessions.js';
import { eventStreamWriter } from '../http/event-stream.js';
import { StreamSlots } from '../orders/stream-slots.js';
import { ReadModelMoves } from './read-model-moves.js';

/** Bounds and rhythm of the back office's live streams. */
export interface LiveStreamLimits {
  /** Open streams per session: one per back-office tab; a few tabs and a reconnect fit. */
  perSession: number;
  /** Open streams in all, whoever holds them. */
  total: number;
  /**
   * How often an idle stream gets a comment, so proxies and the browser keep it open; the session is checked as
   * often, so a stream outlives its sign-out (or expiry, or its user's removal) by at most this long.
   */
  heartbeatMs: number;
  /** Checkpoint moves within this window go out as one event: a few events a second at most. */
  coalesceMs: number;
  /** How long a write may wait for the client to read before the stream is cut. */
  drainTimeoutMs: number;
}

export const LIVE_STREAM_LIMITS: LiveStreamLimits = {
  perSession: 6,
  total: 1000,
  heartbeatMs: 15_000,
  coalesceMs: 300,
  drainTimeoutMs: 10_000,
};

/** What a browser waits before reconnecting a stream the server ended. */
const RECONNECT_MS = 2000;

export interface LiveRoutesDeps {
  database: DatabaseHandle;
  sessions: SessionStore;
  logger: Logger;
  limits?: Partial<LiveStreamLimits>;
  /** Aborted when the server shuts down: every live stream ends, so the server can close. */
  closing?: AbortSignal;
}

const event = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * GET /api/admin/live: server-sent events for the back office's screens. `moved` names the projectors whose
 * read models changed (`{"projectors":["dashboard","orders"]}`), so a page reads again only what they feed;
 * `signed-out` ends the stream once its session is over. A page (re)connecting reads everything it shows again:
 * moves before its stream listened were not sent to it.
 */
export function liveRoutes(deps: LiveRoutesDeps): Router {
  const limits = { ...LIVE_STREAM_LIMITS, ...deps.limits };
  const { sessions, logger } = deps;
  const moves = new ReadModelMoves({ database: deps.database, logger, coalesceMs: limits.coalesceMs });
  deps.closing?.addEventListener('abort', () => void moves.close(), { once: true });
  const slots = new StreamSlots(
    { perClient: limits.perSession, total: limits.total },
    { streams: 'live streams', client: 'this session' },
  );
  const router = Router();

  router.get('/admin/live', requireBackOffice, async (req, res) => {
    // The guard let a session through, so its cookie is there.
    const token = sessionToken(req.get('cookie')) as string;
    const release = slots.take(token);
    const stream = eventStreamWriter(res, {
      drainTimeoutMs: limits.drainTimeoutMs,
      retryMs: RECONNECT_MS,
      label: 'back-office live',
      logger,
    });
    let unlisten = () => {};
    let beat: NodeJS.Timeout | undefined;
    res.on('close', () => {
      clearInterval(beat);
      release();
      unlisten();
    });
    try {
      unlisten = await moves.listen({
        moved: (projectors) => stream.write(event('moved', { projectors })),
        end: stream.end,
      });
    } catch (error) {
      release();
      throw error;
    }
    // The page left, or the api began to stop, while the listener started.
    if (res.destroyed || res.writableEnded) {
      unlisten();
      return;
    }
    // Listening before the head goes out: a page that reads again on `open` misses no move after it.
    stream.open();
    beat = setInterval(async () => {
      const session = await sessions.peek(token).catch((error: unknown) => {
        // Redis not answering is no sign-out: the stream goes on, and the next beat asks again.
        logger.warn({ err: error }, 'back-office live: the session could not be checked');
        return undefined;
      });
      if (session === null) {
        stream.write(event('signed-out', {}));
        stream.end();
      } else stream.write(': heartbeat\n\n');
    }, limits.heartbeatMs);
  });

  return router;
}
