import type { Logger } from '@licensestore/shared/logging';
import { PROJECTION_CHECKPOINT_CHANNEL, parseCheckpointNotification } from '@licensestore/shared/readmodel';
import type pg from 'pg';

export interface ProjectionAdvancesHandlers {
  /** Who listens, for the log line of a broken connection (e.g. 'order events'). */
  listener: string;
  /** A checkpoint of `projector` committed: what it writes may have changed. */
  advanced: (projector: string) => void;
  /** The connection broke: notifications may have been missed since, so what was derived from them is stale. */
  lost: (error: Error) => void;
}

/** Runs steps one after the other, in call order, whatever became of the one before. */
class Sequence {
  private last: Promise<void> = Promise.resolve();

  run(step: () => Promise<void>): Promise<void> {
    const done = this.last.then(step);
    this.last = done.catch(() => {});
    return done;
  }
}

/**
 * The one LISTEN connection of a pool, shared by everyone listening through it (the catalogue cache, the order
 * pages, the back office's live streams): taken when the first joins, handed back when the last leaves.
 */
class SharedListener {
  private client: pg.PoolClient | null = null;
  private readonly members = new Set<ProjectionAdvancesHandlers>();
  private readonly steps = new Sequence();

  constructor(private readonly pool: pg.Pool) {}

  private readonly onNotification = (message: pg.Notification) => {
    if (message.channel !== PROJECTION_CHECKPOINT_CHANNEL || !message.payload) return;
    const checkpoint = parseCheckpointNotification(message.payload);
    if (!checkpoint) return;
    for (const member of [...this.members]) member.advanced(checkpoint.projector);
  };

  private readonly onError = (error: Error) => {
    const client = this.client;
    if (!client) return;
    this.client = null;
    client.off('notification', this.onNotification);
    client.release(error);
    const lost = [...this.members];
    this.members.clear();
    for (const member of lost) member.lost(error);
  };

  /** Hears every checkpoint committed after it resolves, until it leaves or the connection breaks. */
  join(member: ProjectionAdvancesHandlers): Promise<void> {
    return this.steps.run(async () => {
      if (!this.client) await this.open();
      this.members.add(member);
    });
  }

  leave(member: ProjectionAdvancesHandlers): Promise<void> {
    return this.steps.run(async () => {
      this.members.delete(member);
      if (this.members.size === 0) await this.close();
    });
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

  /** Back to the pool, without this listener's handlers; a connection that cannot UNLISTEN is destroyed. */
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

const sharedListeners = new WeakMap<pg.Pool, SharedListener>();

const sharedListenerOf = (pool: pg.Pool) => {
  let shared = sharedListeners.get(pool);
  if (!shared) {
    shared = new SharedListener(pool);
    sharedListeners.set(pool, shared);
  }
  return shared;
};

/**
 * One listener's share of its pool's LISTEN connection on the projection checkpoint channel, joined by `start`
 * and left by `stop`: an API nobody watches holds no connection (and a pool can end), and one that many watch holds
 * one. Starts and stops run one after the other, in call order. Whoever awaited `start` knows every checkpoint
 * committed after it resolved is reported.
 */
export class ProjectionAdvances {
  private readonly shared: SharedListener;
  private readonly member: ProjectionAdvancesHandlers;
  private listening = false;
  private readonly steps = new Sequence();

  constructor(pool: pg.Pool, handlers: ProjectionAdvancesHandlers, logger: Logger) {
    this.shared = sharedListenerOf(pool);
    this.member = {
      ...handlers,
      lost: (error) => {
        this.listening = false;
        logger.warn({ err: error }, `${handlers.listener}: the checkpoint listener connection failed`);
        handlers.lost(error);
      },
    };
  }

  /** Listening once it resolves (a no-op when already listening). */
  start(): Promise<void> {
    return this.steps.run(async () => {
      if (this.listening) return;
      await this.shared.join(this.member);
      this.listening = true;
    });
  }

  /** Stops hearing checkpoints; the connection goes back to the pool when nobody else listens on it. */
  stop(): Promise<void> {
    return this.steps.run(async () => {
      if (!this.listening) return;
      this.listening = false;
      await this.shared.leave(this.member);
    });
  }
}
