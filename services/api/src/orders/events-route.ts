import { AppError, NotFoundError, type OrderWithItemsView } from '@licensestore/domain';
import type { Logger } from '@licensestore/platform/logging';
import type { Request, RequestHandler, Response } from 'express';
import { cookieValues } from '../http/cookies.js';
import { eventStreamWriter } from '../http/event-stream.js';
import { isUuid } from '../http/ids.js';
import type { OrderSink, OrderSnapshot, OrderWatch } from './order-watch.js';
import type { OrderStreamLimits, StreamSlots } from './stream-slots.js';

/** How long a browser waits before reconnecting a dropped stream. */
const RECONNECT_MS = 2000;

/**
 * What one page is shown of a snapshot: the order and its lines as its caller may see them, keys in clear
 * recorded unless this page view already recorded them. `pageView` is the token of the page view's last recorded
 * showing (the browser sends it back as Last-Event-ID when it reconnects); the answer carries the one to send next.
 */
export type SnapshotView = (
  req: Request,
  snapshot: OrderSnapshot,
  pageView: string | undefined,
) => Promise<{ view: OrderWithItemsView; pageView: string | undefined }>;

/** Server-sent events on `res`; the head goes out with the first snapshot, so an unknown order can still 404. */
function eventStream(
  res: Response,
  show: (snapshot: OrderSnapshot) => Promise<{ view: OrderWithItemsView; pageView: string | undefined }>,
  { limits, logger }: { limits: Pick<OrderStreamLimits, 'drainTimeoutMs' | 'maxAgeMs'>; logger: Logger },
): OrderSink {
  const stream = eventStreamWriter(res, { ...limits, retryMs: RECONNECT_MS, label: 'order events', logger });
  const writeSnapshot = ({ view, pageView }: Awaited<ReturnType<typeof show>>) => {
    if (!res.headersSent) stream.open();
    const { items, ...order } = view;
    const id = pageView ? `id: ${pageView}\n` : '';
    stream.write(`${id}event: snapshot\ndata: ${JSON.stringify({ order, items })}\n\n`);
  };
  // A showing is recorded before its snapshot goes out, so snapshots queue up to keep their order. One that cannot
  // be shown (its custody record failed) answers 503 when it is the first, else ends the stream: the page's
  // EventSource reconnects and tries again.
  let queue = Promise.resolve();
  return {
    send: (snapshot) => {
      queue = queue
        .then(() => show(snapshot))
        .then(writeSnapshot)
        .catch((error: unknown) => {
          logger.warn({ err: error, requestId: res.req.requestId }, 'order events: a snapshot was not sent');
          if (res.headersSent) res.end();
          else {
            const status = error instanceof AppError ? error.status : 500;
            const message = error instanceof AppError ? error.message : 'Internal server error';
            res.status(status).set('Cache-Control', 'no-store').json({ error: message });
          }
        });
    },
    heartbeat: () => stream.write(': heartbeat\n\n'),
    end: stream.end,
  };
}

/** The page-view cookie GET /api/orders/:id/items leaves for the page's event stream; lives as long as a page view. */
export const PAGE_VIEW_COOKIE = 'key_view';
const pageViewCookie = (req: Request) => cookieValues(req.get('cookie'), PAGE_VIEW_COOKIE)[0];

export interface OrderEventsRouteDeps {
  watch: OrderWatch;
  view: SnapshotView;
  slots: StreamSlots;
  limits: Pick<OrderStreamLimits, 'drainTimeoutMs' | 'maxAgeMs'>;
  logger: Logger;
}

/**
 * GET /api/orders/:orderId/events: the order and its items at once, then again whenever they change (keys
 * delivered, status changed), as `snapshot` events, each as this caller may see it. 404 for an unknown order,
 * as GET /api/orders/:orderId; 429 for a client over its share of open streams.
 */
export function orderEventsRoute({
  watch,
  view,
  slots,
  limits,
  logger,
}: OrderEventsRouteDeps): RequestHandler {
  return async (req: Request, res: Response) => {
    const orderId = req.params.orderId;
    if (!isUuid(orderId)) throw new NotFoundError('Order not found');
    const release = slots.take(req.ip ?? 'unknown');
    let left = false;
    let unwatch: (() => void) | null = null;
    res.on('close', () => {
      left = true;
      release();
      unwatch?.();
    });
    // The page view goes on from its last recorded showing: the id of its last snapshot when the EventSource
    // reconnects, or the one the page's own GET of the items just recorded.
    let pageView = req.get('last-event-id') ?? pageViewCookie(req);
    try {
      const show = async (snapshot: OrderSnapshot) => {
        const shown = await view(req, snapshot, pageView);
        pageView = shown.pageView ?? pageView;
        return shown;
      };
      const sink = eventStream(res, show, { limits, logger });
      unwatch = await watch.watch(orderId.toLowerCase(), sink);
    } catch (error) {
      release();
      throw error;
    }
    if (!unwatch) {
      release();
      throw new NotFoundError('Order not found');
    }
    if (left) unwatch();
  };
}
