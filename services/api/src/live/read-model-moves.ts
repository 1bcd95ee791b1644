import type { DatabaseHandle } from '@licensestore/platform/db';
import type { Logger } from '@licensestore/platform/logging';
import { ProjectionAdvances } from '../http/projection-advances.js';

/** Where one back-office page hears of the read model's moves. */
export interface MovesListener {
  /** The projectors whose checkpoints moved since the last call (each named once, sorted). */
  moved: (projectors: string[]) => void;
  /** The listener connection broke or the api is stopping: moves may go unheard from now on. */
  end: () => void;
}

export interface ReadModelMovesOptions {
  database: DatabaseHandle;
  logger: Logger;
  /** Moves within this window go out as one call, so a burst of checkpoints is one refresh per page. */
  coalesceMs: number;
}

/**
 * Tells every listening page which projectors' checkpoints moved: one LISTEN connection for all of them, taken
 * while anyone listens. Moves are gathered for `coalesceMs` from the first one, then handed to every listener at
 * once, so a page hears at most one call per window however fast the projectors run.
 */
export class ReadModelMoves {
  private readonly listeners = new Set<MovesListener>();
  private readonly advances: ProjectionAdvances;
  private readonly pending = new Set<string>();
  private flush: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly options: ReadModelMovesOptions) {
    this.advances = new ProjectionAdvances(
      options.database.pool,
      {
        listener: 'back-office live',
        advanced: (projector) => this.gather(projector),
        // Moves may have gone unheard: the pages reconnect (EventSource does so by itself) and read everything again.
        lost: () => this.endAll(),
      },
      options.logger,
    );
  }

  /** Hears every move committed after it resolves, until the returned function is called. */
  async listen(listener: MovesListener): Promise<() => void> {
    if (this.closed) throw new Error('the read model moves are closed');
    this.listeners.add(listener);
    try {
      await this.advances.start();
    } catch (error) {
      this.forget(listener);
      throw error;
    }
    return () => this.forget(listener);
  }

  /** Ends every listener and hands the connection back. */
  async close(): Promise<void> {
    this.closed = true;
    this.endAll();
    await this.advances.stop();
  }

  private gather(projector: string) {
    this.pending.add(projector);
    this.flush ??= setTimeout(() => {
      this.flush = null;
      const moved = [...this.pending].sort();
      this.pending.clear();
      for (const listener of this.listeners) listener.moved(moved);
    }, this.options.coalesceMs);
  }

  private forget(listener: MovesListener) {
    if (!this.listeners.delete(listener) || this.listeners.size > 0) return;
    // Nobody listening: no timer, and the listening connection goes back to the pool.
    if (this.flush) clearTimeout(this.flush);
    this.flush = null;
    this.pending.clear();
    this.advances.stop().catch((error: unknown) => {
      this.options.logger.warn({ err: error }, 'back-office live: stopping the checkpoint listener failed');
    });
  }

  private endAll() {
    for (const listener of [...this.listeners]) {
      this.forget(listener);
      listener.end();
    }
  }
}
