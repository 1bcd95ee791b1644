import { backoffDelay } from '@licensestore/domain/backoff';
import type { EventStore, LogEntry, Position } from '@licensestore/domain/events';
import type { Database } from '@licensestore/platform/db';
import type { Logger } from '@licensestore/platform/logging';
import type { Kysely } from 'kysely';
import type pg from 'pg';
import { ensureCheckpoint, moveCheckpoint, moveCheckpoints } from './checkpoints.js';
import { abortableDelay } from './delay.js';
import type { Projector } from './projector.js';
import { readBatches } from './read-batches.js';
import { rebuildProjector } from './rebuild.js';
import { parkUnreadable } from './unreadable.js';

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
  /** The same database's pool, for rebuilding a projector whose version changed. */
  pool: pg.Pool;
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
 * every projector that is at the reader's position, all applying it in one transaction, each behind its own
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

const retryDelay = (failures: number) =>
  backoffDelay(failures, { firstMs: RETRY_MIN_MS, maxMs: RETRY_MAX_MS });

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
      const to = (events[events.length - 1] as LogEntry).position;
      // Handing out and moving the shared position happen in one step, so a projector joining sees either both.
      const readers = [...following];
      position = to;
      const outcomes = await applyTogether(readers, events, from, to, options);
      for (const [member, outcome] of outcomes) {
        if (outcome === 'applied') continue;
        following.delete(member);
        if (round.signal.aborted) continue;
        catchUpAndJoin(member, outcome === 'failed' ? retryDelay(member.failures) : 0);
      }
    }
  } finally {
    round.abort();
    signal.removeEventListener('abort', stop);
    await pumping;
    while (catchingUp.size > 0) await Promise.all(catchingUp);
  }
}

type Outcome = 'applied' | 'behind' | 'moved' | 'failed';

/** The part of a batch a projector has not applied yet (its checkpoint may be further on than the batch start). */
const unseenBy = (member: Member, events: readonly LogEntry[]) =>
  isBefore(member.position, (events[0] as LogEntry).position)
    ? events
    : events.filter((event) => isBefore(member.position, event.position));

/**
 * Hands a batch the reader read to every projector following it, in one transaction: one statement moves every
 * checkpoint still where this runner left it, then each projector whose checkpoint moved writes its rows, so a
 * batch costs one commit whatever the number of projectors. A projector that throws leaves (it retries alone from
 * its checkpoint with back-off) and the batch is written again without it, so one failing table never holds the
 * others back; a failure no projector caused sends them all to retry alone. One whose checkpoint another writer
 * moved writes nothing and catches up from there; one short of the batch's start never skips, it catches up first.
 */
async function applyTogether(
  readers: readonly Member[],
  events: readonly LogEntry[],
  from: Position | null,
  to: Position,
  options: RunProjectorsOptions,
): Promise<Map<Member, Outcome>> {
  const { db, log, signal } = options;
  const outcomes = new Map<Member, Outcome>();
  let pending: Array<{ member: Member; events: readonly LogEntry[] }> = [];
  for (const member of readers) {
    const unseen = unseenBy(member, events);
    if (isBefore(member.position, from)) outcomes.set(member, 'behind');
    else if (unseen.length === 0) outcomes.set(member, 'applied');
    else pending.push({ member, events: unseen });
  }
  while (pending.length > 0) {
    const attempt: { applying: Member | null } = { applying: null };
    try {
      const moved = await db.transaction().execute(async (trx) => {
        const guards = pending.map(({ member }) => ({
          name: member.projector.name,
          version: member.projector.version,
          from: member.position,
        }));
        const names = await moveCheckpoints(trx, guards, to);
        for (const { member, events: unseen } of pending) {
          if (!names.has(member.projector.name)) continue;
          attempt.applying = member;
          const readable = await parkUnreadable(trx, unseen, member.projector.name, log);
          await member.projector.apply(trx, readable, { schema: 'public', log });
        }
        attempt.applying = null;
        return names;
      });
      for (const { member, events: unseen } of pending) {
        if (!moved.has(member.projector.name)) {
          logMoved(member, log);
          outcomes.set(member, 'moved');
          continue;
        }
        applied(member, unseen.length, to, options);
        outcomes.set(member, 'applied');
      }
      return outcomes;
    } catch (error) {
      const failed = attempt.applying ? [attempt.applying] : pending.map(({ member }) => member);
      for (const member of failed) {
        if (!signal.aborted) recordFailure(member, error, log);
        outcomes.set(member, 'failed');
      }
      pending = signal.aborted ? [] : pending.filter(({ member }) => !failed.includes(member));
    }
  }
  return outcomes;
}

/** Applies `events` (those after the member's position, up to `to`); false when its checkpoint moved elsewhere. */
async function advance(
  member: Member,
  events: readonly LogEntry[],
  to: Position,
  options: RunProjectorsOptions,
): Promise<boolean> {
  if (!(await applyBatch(options.db, member.projector, events, member.position, to, options.log)))
    return false;
  applied(member, events.length, to, options);
  return true;
}

function applied(member: Member, events: number, to: Position, options: RunProjectorsOptions) {
  member.position = to;
  member.failures = 0;
  options.onBatch?.({ projector: member.projector.name, events, position: to });
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
          const to = (events[events.length - 1] as LogEntry).position;
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
  events: readonly LogEntry[],
  from: Position | null,
  to: Position,
  log: Logger,
): Promise<boolean> {
  try {
    await db.transaction().execute(async (trx) => {
      if (!(await moveCheckpoint(trx, projector, from, to))) throw new CheckpointMoved();
      await projector.apply(trx, await parkUnreadable(trx, events, projector.name, log), {
        schema: 'public',
        log,
      });
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
  private events: LogEntry[] = [];
  private ended = false;
  private failure: { error: unknown } | null = null;
  private wakeConsumer: (() => void) | null = null;
  private wakeProducer: (() => void) | null = null;

  constructor(private readonly highWater: number) {}

  async fill(source: AsyncIterable<LogEntry>, signal: AbortSignal): Promise<void> {
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
  async take(max: number): Promise<LogEntry[] | null> {
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
