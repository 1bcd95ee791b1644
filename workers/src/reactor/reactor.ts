import { setTimeout as delay } from 'node:timers/promises';
import { type Backoff, backoffDelay } from '@licensestore/domain/backoff';
import {
  type EventStore,
  isUnreadable,
  type Position,
  type RecordedEvent,
  type UnreadableEvent,
} from '@licensestore/domain/events';
import { takeLeaderLock } from '@licensestore/platform/leader-lock';
import { type Logger, silentLogger } from '@licensestore/platform/logging';
import { logParked, parkStatement } from '@licensestore/platform/parked-events';
import pg from 'pg';
import { type IntendedJob, readCheckpoint, recordProgress, unfinishedJobs } from '../jobs/intents.js';
import type { AddedJob, JobRequest } from '../jobs/queues.js';

/** Maps one recorded event to the jobs it causes; null when the event needs none. Pure: no I/O. */
export type Reaction = (event: RecordedEvent) => JobRequest | readonly JobRequest[] | null;

/** Reactions by event type. */
export type Reactions = Readonly<Record<string, Reaction>>;

/** Where the reactor sends jobs; adding a job whose id exists already must be a no-op. */
export interface JobSink {
  add(request: JobRequest, jobId: string): Promise<void>;
  /**
   * The reactor's mark, kept in the sink beside the jobs so that it is lost with them: the position up to which the
   * sink holds every job the reactor gave it; null when it holds none.
   */
  readMark(reactor: string): Promise<Position | null>;
  /** Moves the mark from `from` to `to` after `added`; false when the sink no longer holds the mark or those jobs. */
  moveMark(
    reactor: string,
    from: Position | null,
    to: Position | null,
    added: readonly AddedJob[],
  ): Promise<boolean>;
}

export interface ReactorOptions {
  /** Names the checkpoint row and the advisory lock: one active reactor per name. */
  name: string;
  databaseUrl: string;
  eventStore: EventStore;
  reactions: Reactions;
  jobs: JobSink;
  logger?: Logger;
  /** How often a reactor checks that the sink still holds its mark while no events arrive (default 5 s). */
  markCheckIntervalMs?: number;
}

export type ReactorState = 'starting' | 'standby' | 'active' | 'stopped';

/**
 * Progress is settled (intents and checkpoint, jobs, mark) a batch at a time: a batch is the events handled while the
 * batch before it settled, at most this many. Three round trips per event would make the reactor the pipeline's
 * bottleneck; a crash replays at most one batch, and replayed events record and enqueue nothing new (deterministic
 * job ids).
 */
const SETTLE_EVERY_JOBS = 100;
const SETTLE_EVERY_EVENTS = 500;
const BACKOFF: Backoff = { firstMs: 500, maxMs: 30_000 };
const MARK_CHECK_INTERVAL_MS = 5_000;

/** The sink (Redis) lost jobs the reactor had added: the unfinished ones after the mark it still holds go in again. */
class JobsLostError extends Error {
  constructor(reactor: string, mark: Position | null) {
    super(`the job queue no longer holds the jobs reactor ${reactor} added up to ${mark ?? 'the start'}`);
    this.name = 'JobsLostError';
  }
}

/**
 * BullMQ job ids may not contain ':'. The id is a pure function of the event and the job name, so a replayed
 * event maps to the same id and BullMQ refuses the duplicate.
 */
export function jobIdFor(eventId: string, jobName: string): string {
  if (!jobName || jobName.includes(':') || eventId.includes(':')) {
    throw new Error(`cannot derive a job id from event ${eventId} and job name '${jobName}'`);
  }
  return `${jobName}.${eventId}`;
}

/**
 * A checkpointed subscription to the global log that turns events into jobs.
 *
 * Each batch of events is settled in three steps: the jobs it causes are written down as intents together with the
 * checkpoint (one Postgres transaction), then added to Redis, then the reactor's mark in Redis is moved past them. A
 * crash in between replays at most the batch, and the deterministic job ids make a second record or enqueue a no-op.
 * Only the instance holding the Postgres session advisory lock is active; the others wait on the lock and take over
 * when its session ends. Checkpoints are written through that same session, so an instance that lost its lock cannot
 * move the checkpoint.
 *
 * The checkpoint says which jobs were written down, not that Redis still has them: a Redis that restarts without
 * its data (or fails over to a replica that lagged) forgets them. The mark is moved only if it is still where the
 * reactor left it and the new jobs are there, so a mark behind the checkpoint, or gone, says Redis may lack the jobs
 * derived after it. A worker crosses out a job's intent once the job is done; so the reactor adds again only the
 * unfinished jobs after the mark, at activation and whenever a move or an idle check finds Redis has forgotten, and a
 * Redis loss costs the work that was unfinished, not the history of the log.
 */
export class Reactor {
  private currentState: ReactorState = 'starting';
  private handled: Position | null = null;
  private stopping = false;
  private readonly stopController = new AbortController();
  private readonly listeners = new Set<() => void>();
  private running: Promise<void> | null = null;
  /** Where this instance last left its mark in the sink. */
  private mark: Position | null = null;
  private readonly logger: Logger;

  constructor(private readonly options: ReactorOptions) {
    this.logger = options.logger ?? silentLogger;
  }

  get name(): string {
    return this.options.name;
  }

  state(): ReactorState {
    return this.currentState;
  }

  /** The last position this instance has handled (intents and checkpoint saved, jobs enqueued, mark moved), or where it started. */
  position(): Position | null {
    return this.handled;
  }

  start(): this {
    this.running ??= this.run();
    return this;
  }

  /** Resolves when this instance reaches `state`; rejects if it stops first. */
  waitForState(state: ReactorState): Promise<void> {
    return this.until(() => this.currentState === state);
  }

  /** Resolves once this instance has handled the event at `position` (or a later one). */
  waitForPosition(position: Position): Promise<void> {
    return this.until(() => this.handled !== null && this.handled >= position);
  }

  /** Finishes the event in hand, saves the checkpoint and releases the lock. */
  async stop(): Promise<void> {
    if (!this.stopping) {
      this.stopping = true;
      this.stopController.abort();
    }
    await this.running;
    this.setState('stopped');
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopping) {
      const session = new pg.Client({
        connectionString: this.options.databaseUrl,
        application_name: `reactor:${this.name}`,
      });
      const lost = new AbortController();
      session.on('error', (error) => lost.abort(error));
      session.on('end', () => lost.abort(new Error('lock session ended')));
      try {
        await session.connect();
        if (await this.acquireLock(session)) {
          failures = 0;
          await this.react(session, lost.signal);
        }
      } catch (error) {
        if (this.stopping) break;
        failures += 1;
        const backoff = backoffDelay(failures, BACKOFF);
        this.logger.error({ reactor: this.name, backoffMs: backoff, err: error }, 'reactor failed; retrying');
        this.setState('starting');
        await session.end().catch(() => {});
        await delay(backoff, undefined, { signal: this.stopController.signal }).catch(() => {});
      } finally {
        await session.end().catch(() => {});
      }
    }
  }

  private async acquireLock(session: pg.Client): Promise<boolean> {
    const held = await takeLeaderLock(session, `reactor:${this.name}`, {
      databaseUrl: this.options.databaseUrl,
      stopping: this.stopController.signal,
      onStandby: () => {
        this.setState('standby');
        this.logger.info({ reactor: this.name }, 'reactor on standby');
      },
      logger: this.logger,
    });
    if (!held) return false;
    this.setState('active');
    this.logger.info({ reactor: this.name }, 'reactor active');
    return true;
  }

  /** Follows the log while this instance holds the lock; a Redis that lost jobs is recovered on the same session. */
  private async react(session: pg.Client, lost: AbortSignal): Promise<void> {
    for (;;) {
      try {
        return await this.follow(session, lost);
      } catch (error) {
        if (!(error instanceof JobsLostError) || this.stopping || lost.aborted) throw error;
        this.logger.warn({ reactor: this.name, err: error }, 'the job queue lost jobs it was given');
      }
    }
  }

  private async follow(session: pg.Client, lost: AbortSignal): Promise<void> {
    const checkpoint = await readCheckpoint(session, this.name);
    this.mark = await this.options.jobs.readMark(this.name);
    if (this.mark !== checkpoint) await this.addUnfinishedAgain(session, checkpoint);
    this.handled = checkpoint;
    this.notify();

    const failed = new AbortController();
    const progress = this.settlement(session, failed);
    const checker = setInterval(progress.check, this.options.markCheckIntervalMs ?? MARK_CHECK_INTERVAL_MS);
    const signal = AbortSignal.any([this.stopController.signal, lost, failed.signal]);
    try {
      for await (const event of this.options.eventStore.subscribeAll(this.handled, signal)) {
        if (isUnreadable(event)) {
          await this.park(session, event);
          await progress.handled(event.position, []);
          continue;
        }
        const jobs = this.jobsFor(event).map((request) => ({
          request,
          jobId: jobIdFor(event.id, request.name),
          position: event.position,
        }));
        await progress.handled(event.position, jobs);
      }
    } finally {
      clearInterval(checker);
      await progress.idle();
    }
    if (lost.aborted) throw lost.reason;
    if (failed.signal.aborted) throw failed.signal.reason;
    await progress
      .settle()
      .catch((error) =>
        this.logger.warn({ reactor: this.name, err: error }, 'could not save the checkpoint'),
      );
  }

  /**
   * The sink's mark is behind the checkpoint (a crash between the two) or gone (Redis lost its data): the jobs derived
   * after the mark may be missing. Only the unfinished ones among them are added again, from their intents; a
   * finished job's intent is gone, so a Redis loss costs what was unfinished, not the history.
   */
  private async addUnfinishedAgain(session: pg.Client, checkpoint: Position | null): Promise<void> {
    const unfinished = await unfinishedJobs(session, this.name, this.mark);
    this.logger.warn(
      { reactor: this.name, checkpoint, mark: this.mark, jobs: unfinished.length },
      'the job queue lacks jobs it was given; adding the unfinished ones again',
    );
    await this.addJobs(unfinished);
    await this.moveMark(checkpoint, unfinished);
  }

  private async addJobs(jobs: readonly IntendedJob[]): Promise<void> {
    await Promise.all(
      jobs.map(async ({ request, jobId }) => {
        await this.options.jobs.add(request, jobId);
        this.logger.debug({ reactor: this.name, queue: request.queue, jobId }, 'job enqueued');
      }),
    );
  }

  /** Moves the sink's mark from where this instance left it; throws when the sink no longer holds it or `added`. */
  private async moveMark(to: Position | null, added: readonly IntendedJob[]): Promise<void> {
    const jobs = added.map(({ request, jobId }) => ({ queue: request.queue, jobId }));
    if (!(await this.options.jobs.moveMark(this.name, this.mark, to, jobs))) {
      throw new JobsLostError(this.name, this.mark);
    }
    this.mark = to;
  }

  /**
   * The handled-but-unsettled events of one activation, and the chain that settles them or checks the mark: one step
   * at a time, in order, so a check never compares Redis with a mark that is being moved. A batch is settled as soon
   * as the one before it is (group commit): the events that arrive meanwhile make the next batch. A failure in the
   * background aborts `failed`, which ends the subscription.
   */
  private settlement(session: pg.Client, failed: AbortController) {
    let batch: { position: Position; jobs: IntendedJob[]; events: number } | null = null;
    let settling = false;
    let chain: Promise<void> = Promise.resolve();
    const fail = (error: unknown) => failed.abort(error);

    /**
     * Intents and checkpoint first, in one transaction; then the jobs go to Redis, then the mark. A crash in between
     * leaves the mark behind the checkpoint, and the next activation adds the unfinished jobs after the mark again.
     */
    const settleBatch = async (done: NonNullable<typeof batch>) => {
      await recordProgress(session, this.name, done.position, done.jobs);
      await this.addJobs(done.jobs);
      await this.moveMark(done.position, done.jobs);
      this.handled = done.position;
      this.notify();
    };

    const settle = (): Promise<void> => {
      const done = batch;
      batch = null;
      if (done) {
        settling = true;
        chain = chain
          .then(() => settleBatch(done))
          .finally(() => {
            settling = false;
            if (batch && !failed.signal.aborted) settle().catch(fail);
          });
      }
      return chain;
    };

    return {
      settle,
      handled: async (position: Position, jobs: readonly IntendedJob[]) => {
        batch ??= { position, jobs: [], events: 0 };
        batch.position = position;
        batch.jobs.push(...jobs);
        batch.events += 1;
        if (!settling) {
          settle().catch(fail);
        } else if (batch.jobs.length >= SETTLE_EVERY_JOBS || batch.events >= SETTLE_EVERY_EVENTS) {
          // A full batch waits for the one before it, which hands over to it when it ends (or fails the activation).
          await chain.catch(() => {});
        }
      },
      /** While no events arrive, nothing else would notice that Redis lost the jobs still waiting or retrying. */
      check: () => {
        if (batch || settling) return;
        chain = chain.then(() => this.moveMark(this.mark, []));
        chain.catch(fail);
      },
      /** Resolves once no step is in flight (whatever its outcome). */
      idle: () => chain.catch(() => {}),
    };
  }

  /** An event that does not read causes no jobs: logged and parked (idempotent), and the reactor moves past it. */
  private async park(session: pg.Client, event: UnreadableEvent): Promise<void> {
    logParked(this.logger, event, { reactor: this.name });
    const { text, values } = parkStatement(event, `reactor:${this.name}`);
    await session.query(text, values);
  }

  private jobsFor(event: RecordedEvent): readonly JobRequest[] {
    const { reactions } = this.options;
    const reaction = Object.hasOwn(reactions, event.type) ? reactions[event.type] : undefined;
    const result = reaction?.(event) ?? null;
    if (result === null) return [];
    return isJobList(result) ? result : [result];
  }

  private setState(state: ReactorState): void {
    this.currentState = state;
    this.notify();
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }

  private until(condition: () => boolean): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (condition()) {
          this.listeners.delete(check);
          resolve();
        } else if (this.currentState === 'stopped') {
          this.listeners.delete(check);
          reject(new Error(`reactor ${this.name} stopped`));
        }
      };
      this.listeners.add(check);
      check();
    });
  }
}

const isJobList = (result: JobRequest | readonly JobRequest[]): result is readonly JobRequest[] =>
  Array.isArray(result);

export const startReactor = (options: ReactorOptions): Reactor => new Reactor(options).start();
