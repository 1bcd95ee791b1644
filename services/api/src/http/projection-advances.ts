import {
  type ChannelListener,
  type ChannelMember,
  channelListener,
  Sequence,
} from '@licensestore/platform/listen';
import type { Logger } from '@licensestore/platform/logging';
import { PROJECTION_CHECKPOINT_CHANNEL, parseCheckpointNotification } from '@licensestore/platform/readmodel';
import type pg from 'pg';

export interface ProjectionAdvancesHandlers {
  /** Who listens, for the log line of a broken connection (e.g. 'order events'). */
  listener: string;
  /** A checkpoint of `projector` committed: what it writes may have changed. */
  advanced: (projector: string) => void;
  /** The connection broke: notifications may have been missed since, so what was derived from them is stale. */
  lost: (error: Error) => void;
}

/**
 * One listener's share of its pool's LISTEN connection on the projection checkpoint channel, joined by `start`
 * and left by `stop`: an API nobody watches holds no connection (and a pool can end), and one that many watch holds
 * one. Starts and stops run one after the other, in call order. Whoever awaited `start` knows every checkpoint
 * committed after it resolved is reported.
 */
export class ProjectionAdvances {
  private readonly shared: ChannelListener;
  private readonly member: ChannelMember;
  private listening = false;
  private readonly steps = new Sequence();

  constructor(pool: pg.Pool, handlers: ProjectionAdvancesHandlers, logger: Logger) {
    this.shared = channelListener(pool, PROJECTION_CHECKPOINT_CHANNEL);
    this.member = {
      notified: (payload) => {
        const checkpoint = parseCheckpointNotification(payload);
        if (checkpoint) handlers.advanced(checkpoint.projector);
      },
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
