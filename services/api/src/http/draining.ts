import type { Express } from 'express';
import { beforeEveryHead } from './response-head.js';

/**
 * Once the instance begins to stop (`closing` aborted), every answer not yet begun says `Connection: close`,
 * requests already in flight included: a load balancer then never reuses a kept-alive connection for a request
 * that would reach a server that has stopped listening.
 */
export function closeConnectionsWhenDraining(app: Express, closing: AbortSignal | undefined): void {
  if (!closing) return;
  beforeEveryHead(app, (res) => {
    if (closing.aborted) res.setHeader('Connection', 'close');
  });
}
