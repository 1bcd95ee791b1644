import type { Logger } from '@licensestore/platform/logging';
import type { Express, Response } from 'express';
import { atEveryRequestStart } from './request-start.js';

/** Probes a load balancer or Prometheus sends every few seconds: logged at debug, or they would drown the rest. */
const PROBES = new Set(['/healthz', '/readyz', '/metrics']);

/** The path without its query string, where secrets travel (sign-in tokens, upload signatures). */
const pathOf = (url: string) => url.split('?', 1)[0] as string;

/**
 * One access line per request once its response has ended (or the client went away: `aborted`), with the ids that
 * the request's events, jobs and e-mails carry too (from giveRequestsContext, with the time the request arrived).
 * One listener function for every request: a request costs no closure.
 */
export function logRequests(app: Express, logger: Logger): void {
  function logLine(this: Response) {
    const { req } = this;
    const path = pathOf(req.originalUrl);
    logger[PROBES.has(path) ? 'debug' : 'info'](
      {
        method: req.method,
        path,
        status: this.statusCode,
        durationMs: Math.round((performance.now() - req.receivedAt) * 10) / 10,
        requestId: req.requestId,
        correlationId: req.correlationId,
        ...(req.clientCorrelationId ? { clientCorrelationId: req.clientCorrelationId } : {}),
        ...(this.writableFinished ? {} : { aborted: true }),
      },
      'request',
    );
  }
  atEveryRequestStart(app, (_req, res) => res.on('close', logLine));
}
