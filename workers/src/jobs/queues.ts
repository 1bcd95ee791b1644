import type { Position } from '@licensestore/domain/events';
import { type DefaultJobOptions, Queue } from 'bullmq';
import { Redis } from 'ioredis';

/** Where BullMQ keeps its data. `prefix` namespaces the keys (tests use a random one per file). */
export interface QueueConnection {
  connection: { url: string };
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
  /** How long the job waits in the queue before a worker may take it; unset: at once. */
  delayMs?: number;
}

/** A job for `queue`, named after it: each queue runs one kind of job. */
export const jobFor = (queue: string, data: unknown): JobRequest => ({ queue, name: queue, data });

/** A job that was added, by queue and id. */
export interface AddedJob {
  queue: string;
  jobId: string;
}

/**
 * Moves a reactor's mark only if it is where the reactor last left it and the jobs it just added are there: a
 * Redis that restarted without its data (or failed over to a replica that had not caught up) fails one of the two.
 * KEYS[1] the mark, KEYS[2..] the jobs; ARGV[1] the expected mark, ARGV[2] the new one ('' for none, in both).
 */
const MOVE_MARK = `
local current = redis.call('GET', KEYS[1])
if (current or '') ~= ARGV[1] then return 0 end
for i = 2, #KEYS do
  if redis.call('EXISTS', KEYS[i]) == 0 then return 0 end
end
if ARGV[2] == '' then redis.call('DEL', KEYS[1]) else redis.call('SET', KEYS[1], ARGV[2]) end
return 1
`;

/** Producer side of every queue, created on first use, and the reactor's marks kept beside the jobs. */
export class JobQueues {
  private readonly queues = new Map<string, Queue>();
  private marks: Redis | null = null;

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
    await this.queue(request.queue).add(request.name, request.data, { jobId, delay: request.delayMs });
  }

  /** The position up to which Redis holds every job the reactor `name` added; null when it holds none. */
  async readMark(name: string): Promise<Position | null> {
    return this.markClient().get(this.markKey(name));
  }

  /**
   * Moves the mark from `from` to `to` (both may be the same: a check) after `added` were added. False when Redis no
   * longer holds what the reactor put there: the mark is not at `from`, or one of the jobs is missing.
   */
  async moveMark(
    name: string,
    from: Position | null,
    to: Position | null,
    added: readonly AddedJob[],
  ): Promise<boolean> {
    const keys = [this.markKey(name), ...added.map(({ queue, jobId }) => this.queue(queue).toKey(jobId))];
    const moved = await this.markClient().eval(MOVE_MARK, keys.length, ...keys, from ?? '', to ?? '');
    return moved === 1;
  }

  async close(): Promise<void> {
    const queues = [...this.queues.values()];
    this.queues.clear();
    const marks = this.marks;
    this.marks = null;
    await Promise.all([...queues.map((queue) => queue.close()), marks?.quit()]);
  }

  private markKey(name: string): string {
    return `${this.settings.prefix ?? 'bull'}:reactor-mark:${name}`;
  }

  private markClient(): Redis {
    if (!this.marks) {
      this.marks = new Redis(this.settings.connection.url);
      // Failures reach the reactor through the commands; unheard, each reconnect attempt would print a stack.
      this.marks.on('error', () => {});
    }
    return this.marks;
  }
}
