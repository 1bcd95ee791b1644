import type { Position } from '@licensestore/domain/events';
import type pg from 'pg';
import { type ChannelListener, type ChannelMember, channelListener } from '../listen/index.js';

export * from './batch-parser.js';
export * from './dashboard-as-of.js';
export * from './dashboard-fold.js';
export * from './license-key-events.js';
export * from './order-events.js';
export * from './product-events.js';
export * from './projectors.js';
export * from './readable-events.js';

/** Projection runners NOTIFY this channel with `<projector> <position>` when a checkpoint commits. */
export const PROJECTION_CHECKPOINT_CHANNEL = 'projection_checkpoint';

export const formatCheckpointNotification = (projector: string, position: Position) =>
  `${projector} ${position}`;

export function parseCheckpointNotification(
  payload: string,
): { projector: string; position: Position } | null {
  const space = payload.indexOf(' ');
  if (space <= 0) return null;
  return { projector: payload.slice(0, space), position: payload.slice(space + 1) };
}

/** Positions are encoded so that plain string order is log order (see eventstore/position.ts). */
const reached = (checkpoint: Position | null, target: Position) =>
  checkpoint !== null && checkpoint >= target;

interface Waiter {
  target: Position;
  pending: Set<string>;
  settle: (visible: boolean) => void;
}

/**
 * The waits of one pool, a member of its pool's shared LISTEN connection on the checkpoint channel while any wait
 * runs; retired when the last ends or the connection breaks, and the next wait starts a new one.
 */
class CheckpointWaits implements ChannelMember {
  readonly waiters = new Set<Waiter>();
  readonly listening: Promise<void>;
  private retired = false;
  /** The look in flight or done last, and the one waiting for it (gathering projectors), if any. */
  private lastCheck: Promise<void> = Promise.resolve();
  private nextCheck: { projectors: Set<string>; done: Promise<void> } | null = null;

  constructor(
    private readonly listener: ChannelListener,
    private readonly onRetire: () => void,
  ) {
    this.listening = listener.join(this);
    // Callers observe failures through their own settle path; this only stops an unhandled rejection.
    this.listening.catch(() => this.retire());
  }

  notified(payload: string) {
    const checkpoint = parseCheckpointNotification(payload);
    if (checkpoint) this.passed(checkpoint.projector, checkpoint.position);
  }

  /** A broken connection cannot be trusted to have delivered every notification: its waiters end now. */
  lost() {
    this.retire();
    for (const waiter of this.waiters) waiter.settle(false);
  }

  /**
   * Looks at the stored checkpoints once, on the listening connection (a wait costs one connection, not two). One
   * look runs at a time; the callers that arrive meanwhile share the next one, which starts after they registered,
   * so a checkpoint written before a caller was listening is still seen.
   */
  check(projectors: string[]): Promise<void> {
    if (!this.nextCheck) {
      const gathered = new Set<string>();
      const done = this.lastCheck
        .catch(() => {})
        .then(() => {
          this.nextCheck = null;
          return this.look([...gathered]);
        });
      this.lastCheck = done;
      this.nextCheck = { projectors: gathered, done };
    }
    for (const projector of projectors) this.nextCheck.projectors.add(projector);
    return this.nextCheck.done;
  }

  private async look(projectors: string[]) {
    await this.listening;
    const { rows } = await this.listener.query<{ name: string; position: string | null }>(
      'SELECT name, position FROM projection_checkpoints WHERE name = ANY($1::text[])',
      [projectors],
    );
    for (const row of rows) if (row.position !== null) this.passed(row.name, row.position);
  }

  private passed(projector: string, position: Position) {
    for (const waiter of this.waiters) {
      if (!waiter.pending.has(projector) || !reached(position, waiter.target)) continue;
      waiter.pending.delete(projector);
      if (waiter.pending.size === 0) waiter.settle(true);
    }
  }

  async remove(waiter: Waiter) {
    this.waiters.delete(waiter);
    if (this.waiters.size > 0) return;
    this.retire();
    await this.listening.then(() => this.listener.leave(this)).catch(() => {});
  }

  private retire() {
    if (this.retired) return;
    this.retired = true;
    this.onRetire();
  }
}

const waitsByPool = new WeakMap<pg.Pool, CheckpointWaits>();

function waitsFor(pool: pg.Pool): CheckpointWaits {
  let waits = waitsByPool.get(pool);
  if (!waits) {
    const created: CheckpointWaits = new CheckpointWaits(
      channelListener(pool, PROJECTION_CHECKPOINT_CHANNEL),
      () => {
        if (waitsByPool.get(pool) === created) waitsByPool.delete(pool);
      },
    );
    waitsByPool.set(pool, created);
    waits = created;
  }
  return waits;
}

/**
 * Read-your-writes: resolves true as soon as every named projector's checkpoint has reached `position`
 * (typically the position a command just appended), false after `timeoutMs`. Also false when the database
 * cannot be asked: the write itself succeeded, only its visibility is unconfirmed.
 * Event-driven: LISTEN first, then one look at the table, so a checkpoint committed in between is not missed.
 */
export async function waitForProjections(
  pool: pg.Pool,
  position: Position,
  options: { projectors: string[]; timeoutMs?: number },
): Promise<boolean> {
  const pending = new Set(options.projectors);
  if (pending.size === 0) return true;
  let timer: NodeJS.Timeout | undefined;
  let settle: (visible: boolean) => void = () => {};
  const outcome = new Promise<boolean>((resolve) => {
    settle = resolve;
    timer = setTimeout(() => resolve(false), options.timeoutMs ?? 3000);
  });
  const waiter: Waiter = { target: position, pending, settle };
  const waits = waitsFor(pool);
  waits.waiters.add(waiter);
  try {
    waits.check([...pending]).catch(() => settle(false));
    return await outcome;
  } finally {
    clearTimeout(timer);
    await waits.remove(waiter);
  }
}
