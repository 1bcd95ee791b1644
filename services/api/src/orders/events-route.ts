import { NotFoundError } from '@licensestore/shared';
import type { Request, RequestHandler, Response } from 'express';
import { isUuid } from '../http/ids.js';
import type { OrderSink, OrderWatch } from './order-watch.js';

/** How long a browser waits before reconnecting a dropped stream. */
const RECONNECT_MS = 2000;

/** Server-sent events on `res`; the head goes out with the first snapshot, so an unknown order can still 404. */
function eventStream(res: Response): OrderSink {
  const write = (text: string) => {
    if (!res.writableEnded) res.write(text);
  };
  return {
    send: (snapshot) => {
      if (!res.headersSent) {
        res.status(200).set({
          'Content-Type': 'text/event-stream; charset=utf-8',
          // Names, addresses and licence keys: no cache anywhere keeps them.
          'Cache-Control': 'no-store',
          Connection: 'keep-alive',
          // nginx and similar would otherwise hold the events back in their buffers.
          'X-Accel-Buffering': 'no',
        });
        write(`retry: ${RECONNECT_MS}\n\n`);
      }
      write(`event: snapshot\ndata: ${JSON.stringify(snapshot)}\n\n`);
    },
    heartbeat: () => write(': heartbeat\n\n'),
    end: () => {
      if (!res.writableEnded) res.end();
    },
  };
}

/**
 * GET /api/orders/:orderId/events: the order and its items at once, then again whenever they change (keys
 * delivered, status changed), as `snapshot` events. 404 for an unknown order, as GET /api/orders/:orderId.
 */
export function orderEventsRoute(watch: OrderWatch): RequestHandler {
  return async (req: Request, res: Response) => {
    const orderId = req.params.orderId;
    if (!isUuid(orderId)) throw new NotFoundError('Order not found');
    let left = false;
    let unwatch: (() => void) | null = null;
    res.on('close', () => {
      left = true;
      unwatch?.();
    });
    unwatch = await watch.watch(orderId.toLowerCase(), eventStream(res));
    if (!unwatch) throw new NotFoundError('Order not found');
    if (left) unwatch();
  };
}
