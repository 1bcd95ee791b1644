import type { Logger } from '@licensestore/shared/logging';
import { PROJECTION_CHECKPOINT_CHANNEL, parseCheckpointNotification } from '@licensestore/shared/readmodel';
import type pg from 'pg';

export interface ProjectionAdvancesHandlers {
  /** Who listens, for the log line of a broken connection (e.g. 'order events'). */
  listener: string;
  /** A checkpoint of `projector` committed: what it writes may have changed. */
  advanced: (projector: string) => void;
  /** The connection broke: notifications may have been missed since, so what was derived from them is stale. */
  lost: () => void;
}

/**
 * One LISTEN connection on the projection checkpoint channel, taken from the pool by `start` and handed back by
 * `stop`, so an API nobody watches holds no connection (and a pool can end). Starts and stops run one after the
 * other, in call order. Whoever awaited `start` knows every checkpoint committed after it resolved is reported.
 */
export class ProjectionAdvances {
  private client: pg.PoolClient | null = null;
  private transition: Promise<void> = Promise.resolve();

  constructor(
    private readonly pool: pg.Pool,
    private readonly handlers: ProjectionAdvancesHandlers,
    private readonly logger: Logger,
  ) {}

  private readonly onNotification = (message: pg.Notification) => {
    if (message.channel !== PROJECTION_CHECKPOINT_CHANNEL || !message.payload) return;
    const checkpoint = parseCheckpointNotification(message.payload);
    if (checkpoint) this.handlers.advanced(checkpoint.projector);
  };

  private readonly onError = (error: Error) => {
    const client = this.client;
    if (!client) return;
    this.logger.warn({ err: error }, `${this.handlers.listener}: the checkpoint listener connection failed`);
    this.client = null;
    client.off('notification', this.onNotification);
    client.release(error);
    this.handlers.lost();
  };

  /** Listening once it resolves (a no-op when already listening). */
  start(): Promise<void> {
    return this.next(() => (this.client ? Promise.resolve() : this.open()));
  }

  /** Back to the pool, without this listener's handlers; a connection that cannot UNLISTEN is destroyed. */
  stop(): Promise<void> {
    return this.next(() => this.close());
  }

  private next(step: () => Promise<void>): Promise<void> {
    const done = this.transition.then(step);
    this.transition = done.catch(() => {});
    return done;
  }

  private async open() {
    const client = await this.pool.connect();
    client.on('error', this.onError);
    client.on('notification', this.onNotification);
    try {
      await client.query(`LISTEN ${PROJECTION_CHECKPOINT_CHANNEL}`);
    } catch (error) {
      client.off('notification', this.onNotification);
      client.release(error as Error);
      throw error;
    }
    this.client = client;
  }

  private async close() {
    const client = this.client;
    if (!client) return;
    this.client = null;
    client.off('notification', this.onNotification);
    try {
      await client.query(`UNLISTEN ${PROJECTION_CHECKPOINT_CHANNEL}`);
      client.off('error', this.onError);
      client.release();
    } catch (error) {
      client.release(error as Error);
    }
  }
}
