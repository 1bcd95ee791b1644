import type { Database } from '@licensestore/shared/db';
import type { EventStore, Position, RecordedEvent } from '@licensestore/shared/eventstore';
import type { Logger } from '@licensestore/shared/logging';
import type { Kysely } from 'kysely';
import { ensureCheckpoint, moveCheckpoint } from './checkpoints.js';
import { abortableDelay } from './delay.js';
import type { Projector } from './projector.js';
import { readBatches } from './read-batches.js';
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

/**
 * Runs every projector until `signal` aborts, from one reading of the log: each batch is read once and handed to
 * every projector that is at the reader's position, each applying it in its own transaction behind its own
 * guarded checkpoint. A projector that is behind (new, rebuilt, failed, or its checkpoint moved by someone else)
 * catches up on its own and then joins the reader again; the others keep going meanwhile. Infrastructure
 * failures are retried with backoff, never thrown.
 */
export async function runProjectors(options: RunProjectorsOptions): Promise<void> {
  const { log, signal } = options;
  let failures = 0;
  while (!signal.aborted) {
    try {
      await readTogether(options, () => {
        failures = 0;
      });
    } catch (error) {
      if (signal.aborted) break;
      failures++;
      const retryInMs = retryDelay(failures);
      log.error({ err: error, retryInMs }, 'reading the log failed; retrying from the checkpoints');
      await abortableDelay(retryInMs, signal);
    }
  }
}

const retryDelay = (failures: number) => Math.min(RETRY_MAX_MS, RETRY_MIN_MS * 2 ** (failures - 1));

/** A projector and the position its stored checkpoint is at, as far as this runner knows. */
interface Member {
  readonly projector: Projector;
  position: Position | null;
  failures: number;
}

/** Positions are fixed-width strings (ADR 002): plain comparison orders them; null is before the first event. */
const isBefore = (a: Position | null, b: Position | null) => b !== null && (a === null || a < b);

/**
 * One subscription from the furthest checkpoint, handed batch by batch to the projectors at its position; the
 * others catch up alone and join. Returns when the signal aborts; throws when reading the log fails.
 */
async function readTogether(options: RunProjectorsOptions, onRead: () => void): Promise<void> {
  const { db, store, projectors, signal } = options;
  const maxBatch = options.maxBatch ?? DEFAULT_MAX_BATCH;
  const members: Member[] = [];
  const current = new Set<Member>();
  for (const projector of projectors) {
    const checkpoint = await ensureCheckpoint(db, projector.name, projector.version);
    const member = { projector, position: checkpoint.position, failures: 0 };
    members.push(member);
    if (checkpoint.version === projector.version) current.add(member);
  }
  let position = members.reduce<Position | null>(
    (furthest, member) => (isBefore(furthest, member.position) ? member.position : furthest),
    null,
  );
  const round = new AbortController();
  const stop = () => round.abort();
  // A listener added to an already aborted signal never runs: a stop during start-up must still end this.
  if (signal.aborted) stop();
  else signal.addEventListener('abort', stop, { once: true });
  const following = new Set<Member>();
  const catchingUp = new Set<Promise<void>>();
  // Synchronous, so no batch can be handed out between the comparison and the joining.
  const tryJoin = (member: Member) => {
    if (isBefore(member.position, position)) return false;
    following.add(member);
    return true;
  };
  const catchUpAndJoin = (member: Member, retryInMs: number) => {
    const task = catchUp(member, tryJoin, retryInMs, { ...options, maxBatch, signal: round.signal }).finally(
      () => catchingUp.delete(task),
    );
    catchingUp.add(task);
  };
  for (const member of members) {
    if (!(current.has(member) && tryJoin(member))) catchUpAndJoin(member, 0);
  }

  const buffer = new EventBuffer(maxBatch * 2);
  const pumping = buffer.fill(store.subscribeAll(position, round.signal), round.signal);
  try {
    while (!round.signal.aborted) {
      const events = await buffer.take(maxBatch);
      if (!events) return;
      onRead();
      const from = position;
      const to = (events[events.length - 1] as RecordedEvent).position;
      // Handing out and moving the shared position happen in one step, so a projector joining sees either both.
      const readers = [...following];
      position = to;
      await Promise.all(
        readers.map(async (member) => {
          const outcome = await applyFollowing(member, events, from, to, options);
          if (outcome === 'applied') return;
          following.delete(member);
          if (round.signal.aborted) return;
          catchUpAndJoin(member, outcome === 'failed' ? retryDelay(member.failures) : 0);
        }),
      );
    }
  } finally {
    round.abort();
    signal.removeEventListener('abort', stop);
    await pumping;
    while (catchingUp.size > 0) await Promise.all(catchingUp);
  }
}

/** A batch the reader hands out, less what this projector already has (its checkpoint may be further on). */
async function applyFollowing(
  member: Member,
  events: readonly RecordedEvent[],
  from: Position | null,
  to: Position,
  options: RunProjectorsOptions,
): Promise<'applied' | 'behind' | 'moved' | 'failed'> {
  // Never skip: a projector short of where this batch starts catches up on its own first.
  if (isBefore(member.position, from)) return 'behind';
  const unseen = isBefore(member.position, (events[0] as RecordedEvent).position)
    ? events
    : events.filter((event) => isBefore(member.position, event.position));
  if (unseen.length === 0) return 'applied';
  try {
    if (await advance(member, unseen, to, options)) return 'applied';
    logMoved(member, options.log);
    return 'moved';
  } catch (error) {
    if (!options.signal.aborted) recordFailure(member, error, options.log);
    return 'failed';
  }
}

/** Applies `events` (those after the member's position, up to `to`); false when its checkpoint moved elsewhere. */
async function advance(
  member: Member,
  events: readonly RecordedEvent[],
  to: Position,
  options: RunProjectorsOptions,
): Promise<boolean> {
  const { projector } = member;
  if (!(await applyBatch(options.db, projector, events, member.position, to, options.log))) return false;
  member.position = to;
  member.failures = 0;
  options.onBatch?.({ projector: projector.name, events: events.length, position: to });
  return true;
}

const logMoved = (member: Member, log: Logger) =>
  log.info(
    { projector: member.projector.name, position: member.position },
    'checkpoint moved elsewhere; catching up from it',
  );

/** Counts and logs a failed batch; returns how long to wait before trying again from the checkpoint. */
function recordFailure(member: Member, error: unknown, log: Logger): number {
  member.failures++;
  const retryInMs = retryDelay(member.failures);
  log.error(
    { projector: member.projector.name, err: error, retryInMs },
    'projection failed; retrying from the checkpoint',
  );
  return retryInMs;
}

/**
 * Brings one projector from its stored checkpoint (rebuilding it first when its version changed) up to the
 * reader's position, reading on its own, so the projectors already there never wait for it nor read again; it
 * then joins the reader. Failures back off and start again from the checkpoint; ends when the signal aborts.
 */
async function catchUp(
  member: Member,
  tryJoin: (member: Member) => boolean,
  retryInMs: number,
  options: RunProjectorsOptions & { maxBatch: number },
): Promise<void> {
  const { store, log, signal, maxBatch } = options;
  let delay = retryInMs;
  while (!signal.aborted) {
    await abortableDelay(delay, signal);
    if (signal.aborted) return;
    try {
      member.position = await startingPosition(member.projector, options);
      while (!tryJoin(member)) {
        let read = false;
        for await (const events of readBatches(store, member.position, maxBatch, signal)) {
          read = true;
          const to = (events[events.length - 1] as RecordedEvent).position;
          if (!(await advance(member, events, to, options))) throw new CheckpointMoved();
          if (tryJoin(member)) return;
        }
        // The reader has read past this point already, so the log holds more: a read that saw none is retried.
        if (!read) await abortableDelay(RETRY_MIN_MS, signal);
      }
      return;
    } catch (error) {
      if (signal.aborted) return;
      if (error instanceof CheckpointMoved) {
        logMoved(member, log);
        delay = 0;
      } else {
        delay = recordFailure(member, error, log);
      }
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
      if (!(await moveCheckpoint(trx, projector, from, to))) throw new CheckpointMoved();
      await projector.apply(trx, events, { schema: 'public', log });
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
