import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';

type Handle = (req: IncomingMessage, res: ServerResponse, callback?: unknown) => void;

/**
 * Runs `start` on every request of `app` as it enters the app, before Express gives the request and its response the
 * app's prototypes. Once an object's prototype has changed, V8 adds each new property to it through a slow path (about
 * 1.2 µs a property on this machine, against ~10 ns before: a tenth of the api's time per cached read, as
 * `npm run bench:api` under a profiler showed), so the fields our middlewares keep on a request are created here, and
 * only assigned afterwards. Hooked into `app.handle`, which Express's app function calls for every request.
 */
export function atEveryRequestStart(
  app: Express,
  start: (req: IncomingMessage, res: ServerResponse) => void,
): void {
  const hooked = app as unknown as { handle: Handle };
  const handle = hooked.handle;
  hooked.handle = function handleStarted(this: Express, req, res, callback) {
    start(req, res);
    handle.call(this, req, res, callback);
  };
}

/**
 * Creates up front, for the reason above, the fields Express 5 (5.3, router 2.3) adds to every request and response
 * once their prototypes have changed, each left undefined for Express to fill in as it always does. Only speed
 * depends on the list being Express's.
 */
export function reserveExpressFields(app: Express): void {
  atEveryRequestStart(app, (req, res) => {
    const fields = req as unknown as Record<string, unknown>;
    fields.next = undefined;
    fields.baseUrl = undefined;
    fields.originalUrl = undefined;
    fields._parsedUrl = undefined;
    fields.params = undefined;
    (res as unknown as { locals: unknown }).locals = undefined;
  });
}
