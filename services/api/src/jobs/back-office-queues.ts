import { AppError } from '@licensestore/domain';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';

/** The job queue cannot take or answer the job now: the caller may try again later. */
export class QueueUnavailableError extends AppError {
  constructor(message: string) {
    super(503, message);
  }
}

export interface BackOfficeQueueDeps {
  redisUrl: string | undefined;
  /** The API's Redis: a key prefix it has (one Redis shared by instances or tests) namespaces the queues too. */
  redis: Redis;
  closing?: AbortSignal | undefined;
}

/** BullMQ's key prefix for this api's queues; the roles beside it are started with the same (`bull` without one). */
export const queuePrefixOf = (redis: Redis) =>
  redis.options.keyPrefix ? `${redis.options.keyPrefix}bull` : undefined;

/**
 * A queue of the back office's heavy jobs, which the projections role takes, opened at its first use and closed
 * with the api. Without REDIS_URL there is none: `needs` says so as a 503.
 */
export function backOfficeQueue(name: string, deps: BackOfficeQueueDeps, needs: string): () => Queue {
  let queue: Queue | undefined;
  deps.closing?.addEventListener('abort', () => void queue?.close(), { once: true });
  return () => {
    if (!deps.redisUrl) throw new QueueUnavailableError(needs);
    queue ??= new Queue(name, { connection: { url: deps.redisUrl }, prefix: queuePrefixOf(deps.redis) });
    return queue;
  };
}
