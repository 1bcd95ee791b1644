import type { Database } from '@licensestore/shared/db';
import type { EventStore, Position, RecordedEvent } from '@licensestore/shared/eventstore';
import type { Logger } from '@licensestore/shared/logging';
import { type Kysely, sql } from 'kysely';
import { ensureCheckpoint, notifyCheckpoint } from './checkpoints.js';
import { abortableDelay } from './delay.js';
import type { Projector } from './projector.js';
import { rebuildProjector } from './rebuild.js';

export const DEFAULT_MAX_BATCH = 5000;
const RETRY_MIN_MS = 200;
const RETRY_MAX_MS = 30_000;

export interface BatchApplied {
  projector: string;
  events: number;
  position: Position;
}

export interface RunProjectorsOptions {
  db: Kysely<Database>;
  store: EventStore;
  projectors: readonly Projector[];
  log: Logger;
  /** Aborting stops the subscriptions; a batch being written is finished first. */
  signal: AbortSignal;
  /** Most events per transaction (catching up); live batches are whatever has arrived. */
  maxBatch?: number;
  onBatch?: (batch: BatchApplied) => void;
}

/** Runs every projector until `signal` aborts. Infrastructure failures are retried with backoff, never thrown. */
export async function runProjectors(options: RunProjectorsOptions): Promise<void> {
  await Promise.all(options.projectors.map((projector) => runProjector(projector, options)));
}

async function runProjector(projector: Projector, options: RunProjectorsOptions): Promise<void> {
  const { log, signal } = options;
  let failures = 0;
  while (!signal.aborted) {
    try {
      const from = await startingPosition(projector, options);
      await follow(projector, from, options, () => {
        failures = 0;
      });
    } catch (error) {
      if (signal.aborted) break;
      failures++;
      const retryInMs = Math.min(RETRY_MAX_MS, RETRY_MIN_MS * 2 ** (failures - 1));
      log.error(
        { projector: projector.name, err: error, retryInMs },
        'projection failed; retrying from the checkpoint',
      );
      await abortableDelay(retryInMs, signal);
    }
  }
}

/**
 * The stored checkpoint. A projector seen for the first time starts at the beginning of the log in its
 * (empty, migrated) tables, resumable batch by batch; one whose stored version differs is rebuilt first.
 */
async function startingPosition(
  projector: Projector,
  options: RunProjectorsOptions,
): Promise<Position | null> {
  const { db, log } = options;
  const checkpoint = await ensureCheckpoint(db, projector.name, projector.version);
  if (checkpoint.version === projector.version) return checkpoint.position;
  log.info(
    { projector: projector.name, storedVersion: checkpoint.version, version: projector.version },
    'projector version changed; rebuilding its tables',
  );
  await rebuildProjector({ ...options, projector, onlyIfStale: true, batchSize: options.maxBatch });
  return (await ensureCheckpoint(db, projector.name, projector.version)).position;
}

/**
 * Subscribes from `from` and applies what arrives in batches until the signal aborts or the checkpoint is moved
 * by someone else (a rebuild swapped the tables, or a second runner got there first): the caller then starts
 * again from the stored checkpoint.
 */
async function follow(
  projector: Projector,
  from: Position | null,
  options: RunProjectorsOptions,
  onCommitted: () => void,
): Promise<void> {
  const { db, store, log, signal } = options;
  const maxBatch = options.maxBatch ?? DEFAULT_MAX_BATCH;
  const subscription = new AbortController();
  const stop = () => subscription.abort();
  // A listener added to an already aborted signal never runs: a stop during start-up must still end this.
  if (signal.aborted) stop();
  else signal.addEventListener('abort', stop, { once: true });
  const buffer = new EventBuffer(maxBatch * 2);
  const pumping = buffer.fill(store.subscribeAll(from, subscription.signal), subscription.signal);
  let position = from;
  try {
    while (!subscription.signal.aborted) {
      const events = await buffer.take(maxBatch);
      if (!events) return;
      const next = (events[events.length - 1] as RecordedEvent).position;
      if (!(await applyBatch(db, projector, events, position, next, log))) {
        log.info(
          { projector: projector.name, position },
          'checkpoint moved elsewhere; resubscribing from it',
        );
        return;
      }
      position = next;
      onCommitted();
      options.onBatch?.({ projector: projector.name, events: events.length, position: next });
    }
  } finally {
    subscription.abort();
    signal.removeEventListener('abort', stop);
    await pumping;
  }
}

class CheckpointMoved extends Error {}

/**
 * One transaction: move the checkpoint first, guarded by the position (and version) this runner read, then
 * write the rows. Zero rows updated means another writer moved it; nothing is written.
 */
export async function applyBatch(
  db: Kysely<Database>,
  projector: Projector,
  events: readonly RecordedEvent[],
  from: Position | null,
  to: Position,
  log: Logger,
): Promise<boolean> {
  try {
    await db.transaction().execute(async (trx) => {
      const moved = await trx
        .updateTable('projection_checkpoints')
        .set({ position: to, updated_at: sql<Date>`now()` })
        .where('name', '=', projector.name)
        .where('position', 'is not distinct from', from)
        .where('version', '=', projector.version)
        .executeTakeFirst();
      if (moved.numUpdatedRows === 0n) throw new CheckpointMoved();
      await projector.apply(trx, events, { schema: 'public', log });
      await notifyCheckpoint(trx, projector.name, to);
    });
    return true;
  } catch (error) {
    if (error instanceof CheckpointMoved) return false;
    throw error;
  }
}

/**
 * Decouples reading from writing: the subscription keeps filling while a batch is written, and the writer takes
 * whatever is there (up to a limit). Bounded, so a slow database does not pile the log up in memory.
 */
class EventBuffer {
  private events: RecordedEvent[] = [];
  private ended = false;
  private failure: { error: unknown } | null = null;
  private wakeConsumer: (() => void) | null = null;
  private wakeProducer: (() => void) | null = null;

  constructor(private readonly highWater: number) {}

  async fill(source: AsyncIterable<RecordedEvent>, signal: AbortSignal): Promise<void> {
    const onAbort = () => this.wakeProducer?.();
    signal.addEventListener('abort', onAbort);
    try {
      for await (const event of source) {
        this.events.push(event);
        this.wakeConsumer?.();
        if (this.events.length >= this.highWater && !signal.aborted) {
          await new Promise<void>((resolve) => {
            this.wakeProducer = resolve;
          });
          this.wakeProducer = null;
        }
        if (signal.aborted) break;
      }
    } catch (error) {
      if (!signal.aborted) this.failure = { error };
    } finally {
      signal.removeEventListener('abort', onAbort);
      this.ended = true;
      this.wakeConsumer?.();
    }
  }

  /** At least one event, at most `max`; null once the source has ended; the source's error once drained. */
  async take(max: number): Promise<RecordedEvent[] | null> {
    while (this.events.length === 0) {
      if (this.failure) throw this.failure.error;
      if (this.ended) return null;
      await new Promise<void>((resolve) => {
        this.wakeConsumer = resolve;
      });
      this.wakeConsumer = null;
    }
    const batch = this.events.length <= max ? this.events : this.events.slice(0, max);
    this.events = this.events.length <= max ? [] : this.events.slice(max);
    if (this.events.length < this.highWater) this.wakeProducer?.();
    return batch;
  }
}
