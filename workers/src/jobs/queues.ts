import { type ConnectionOptions, type DefaultJobOptions, Queue } from 'bullmq';

/** Where BullMQ keeps its data. `prefix` namespaces the keys (tests use a random one per file). */
export interface QueueConnection {
  connection: ConnectionOptions;
  prefix?: string | undefined;
}

export const redisConnection = (redisUrl: string, prefix?: string): QueueConnection => ({
  connection: { url: redisUrl },
  prefix,
});

const DAY_SECONDS = 24 * 60 * 60;

/**
 * Side effects retry for about half an hour (1 s doubling, 12 attempts: 2,047 s of waits) before a job fails for good. Finished jobs are
 * kept for a while: a kept job is what makes a re-enqueue with the same id a no-op (see the reactor).
 */
export const defaultJobOptions = {
  attempts: 12,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: { age: 7 * DAY_SECONDS },
  removeOnFail: { age: 30 * DAY_SECONDS },
} as const satisfies DefaultJobOptions;

/** A job the reactor asks for; its id is derived from the event, never chosen here. */
export interface JobRequest {
  queue: string;
  name: string;
  data: unknown;
}

/** Producer side of every queue, created on first use. */
export class JobQueues {
  private readonly queues = new Map<string, Queue>();

  constructor(private readonly settings: QueueConnection) {}

  queue(name: string): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, {
        connection: this.settings.connection,
        prefix: this.settings.prefix,
        defaultJobOptions,
      });
      this.queues.set(name, queue);
    }
    return queue;
  }

  /** Adds the job unless one with this id exists already (BullMQ ignores a duplicate id). */
  async add(request: JobRequest, jobId: string): Promise<void> {
    await this.queue(request.queue).add(request.name, request.data, { jobId });
  }

  async close(): Promise<void> {
    const queues = [...this.queues.values()];
    this.queues.clear();
    await Promise.all(queues.map((queue) => queue.close()));
  }
}
