import { timeOrderedId } from '@licensestore/platform/ids';
import type { Express as App, Request } from 'express';
import type { Session } from '../auth/sessions.js';
import { atEveryRequestStart } from './request-start.js';

declare global {
  namespace Express {
    interface Request {
      /** Unique per request; the causation id of any command the request issues. */
      requestId: string;
      /**
       * Links the events, jobs and e-mails the request causes: made by the server (the request id), never taken
       * from the caller, whose id could link its events into another order's history.
       */
      correlationId: string;
      /** The caller's own X-Correlation-Id (or X-Request-Id) when usable: untrusted, only ever logged. */
      clientCorrelationId: string | undefined;
      /** Set by `loadSession` on API routes; null when signed out. */
      session: Session | null;
      /** `performance.now()` when the request reached the app: where its duration is measured from. */
      receivedAt: number;
    }
  }
}

const USABLE_ID = /^[\w.:-]{1,128}$/;

const headerId = (value: unknown) => (typeof value === 'string' && USABLE_ID.test(value) ? value : undefined);

/** Gives every request of `app` its ids and arrival time, and every answer its X-Request-Id. */
export function giveRequestsContext(app: App): void {
  atEveryRequestStart(app, (incoming, res) => {
    const req = incoming as Request;
    req.receivedAt = performance.now();
    req.requestId = timeOrderedId();
    req.correlationId = req.requestId;
    req.clientCorrelationId =
      headerId(req.headers['x-correlation-id']) ?? headerId(req.headers['x-request-id']);
    req.session = null;
    res.setHeader('X-Request-Id', req.requestId);
  });
}
