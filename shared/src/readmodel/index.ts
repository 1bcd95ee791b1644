import type pg from 'pg';
import type { Position } from '../eventstore/port.js';

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
 * One LISTEN connection per pool, shared by every concurrent wait and handed back to the pool when the last
 * one ends, so an idle API holds no extra connection.
 */
class CheckpointListener {
  readonly waiters = new Set<Waiter>();
  readonly ready: Promise<void>;
  private client: pg.PoolClient | null = null;
  private failed = false;
  /** The look in flight or done last, and the one waiting for it (gathering projectors), if any. */
  private lastCheck: Promise<void> = Promise.resolve();
  private nextCheck: { projectors: Set<string>; done: Promise<void> } | null = null;

  constructor(
    pool: pg.Pool,
    private readonly onRetire: () => void,
  ) {
    this.ready = this.open(pool);
    // Callers observe failures through their own settle path; this only stops an unhandled rejection.
    this.ready.catch(() => {});
  }

  private readonly onError = () => this.fail();
  private readonly onNotification = (message: pg.Notification) => {
    if (message.channel !== PROJECTION_CHECKPOINT_CHANNEL || !message.payload) return;
    const checkpoint = parseCheckpointNotification(message.payload);
    if (checkpoint) this.passed(checkpoint.projector, checkpoint.position);
  };

  private async open(pool: pg.Pool) {
    try {
      const client = await pool.connect();
      this.client = client;
      client.on('error', this.onError);
      client.on('notification', this.onNotification);
      await client.query(`LISTEN ${PROJECTION_CHECKPOINT_CHANNEL}`);
    } catch (error) {
      this.fail();
      throw error;
    }
    if (this.waiters.size === 0) await this.close();
  }

  /**
   * Looks at the stored checkpoints once, on the listening connection (a wait costs one connection, not two). One
   * look runs at a time on that connection; the callers that arrive meanwhile share the next one, which starts after
   * they registered, so a checkpoint written before a caller was listening is still seen.
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
    await this.ready;
    const client = this.client;
    if (!client) throw new Error('checkpoint listener connection failed');
    const { rows } = await client.query<{ name: string; position: string | null }>(
      'SELECT name, position FROM projection_checkpoints WHERE name = ANY($1::text[])',
      [projectors],
    );
    for (const row of rows) if (row.position !== null) this.passed(row.name, row.position);
  }

  passed(projector: string, position: Position) {
    for (const waiter of this.waiters) {
      if (!waiter.pending.has(projector) || !reached(position, waiter.target)) continue;
      waiter.pending.delete(projector);
      if (waiter.pending.size === 0) waiter.settle(true);
    }
  }

  async remove(waiter: Waiter) {
    this.waiters.delete(waiter);
    if (this.waiters.size === 0) {
      this.onRetire();
      await this.ready.then(() => this.close()).catch(() => {});
    }
  }

  /** A broken connection cannot be trusted to have delivered every notification: its waiters end now. */
  private fail() {
    if (this.failed) return;
    this.failed = true;
    this.onRetire();
    for (const waiter of this.waiters) waiter.settle(false);
    const client = this.client;
    this.client = null;
    // The error handler stays: the destroyed client may still emit while it closes.
    client?.off('notification', this.onNotification);
    client?.release(new Error('checkpoint listener connection failed'));
  }

  private async close() {
    const client = this.client;
    if (!client || this.failed || this.waiters.size > 0) return;
    this.client = null;
    try {
      await client.query(`UNLISTEN ${PROJECTION_CHECKPOINT_CHANNEL}`);
    } catch (error) {
      client.off('notification', this.onNotification);
      client.release(error as Error);
      return;
    }
    // The client goes back to the pool: it must not carry this listener's handlers to its next user.
    client.off('notification', this.onNotification);
    client.off('error', this.onError);
    client.release();
  }
}

const listeners = new WeakMap<pg.Pool, CheckpointListener>();

function listenerFor(pool: pg.Pool): CheckpointListener {
  let listener = listeners.get(pool);
  if (!listener) {
    const created: CheckpointListener = new CheckpointListener(pool, () => {
      if (listeners.get(pool) === created) listeners.delete(pool);
    });
    listeners.set(pool, created);
    listener = created;
  }
  return listener;
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
  const listener = listenerFor(pool);
  listener.waiters.add(waiter);
  try {
    listener.check([...pending]).catch(() => settle(false));
    return await outcome;
  } finally {
    clearTimeout(timer);
    await listener.remove(waiter);
  }
}
