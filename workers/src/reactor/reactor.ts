import { setTimeout as delay } from 'node:timers/promises';
import type { EventStore, Position, RecordedEvent } from '@licensestore/shared/eventstore';
import { type Logger, silentLogger } from '@licensestore/shared/logging';
import pg from 'pg';
import type { JobRequest } from '../jobs/queues.js';

/** Maps one recorded event to the jobs it causes; null when the event needs none. Pure: no I/O. */
export type Reaction = (event: RecordedEvent) => JobRequest | readonly JobRequest[] | null;

/** Reactions by event type. */
export type Reactions = Readonly<Record<string, Reaction>>;

/** Where the reactor sends jobs; adding a job whose id exists already must be a no-op. */
export interface JobSink {
  add(request: JobRequest, jobId: string): Promise<void>;
}

export interface ReactorOptions {
  /** Names the checkpoint row and the advisory lock: one active reactor per name. */
  name: string;
  databaseUrl: string;
  eventStore: EventStore;
  reactions: Reactions;
  jobs: JobSink;
  logger?: Logger;
}

export type ReactorState = 'starting' | 'standby' | 'active' | 'stopped';

/** Events without jobs move the checkpoint lazily: replaying them does nothing, so writing each one is waste. */
const CHECKPOINT_EVERY = 500;
const MAX_BACKOFF_MS = 30_000;

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
 * Delivery is at least once: the checkpoint is written after the enqueue, so a crash in between replays the
 * event, and the deterministic job id makes the second enqueue a no-op. Only the instance holding the Postgres
 * session advisory lock is active; the others wait on the lock and take over when its session ends. Checkpoints
 * are written through that same session, so an instance that lost its lock cannot move the checkpoint.
 */
export class Reactor {
  private currentState: ReactorState = 'starting';
  private handled: Position | null = null;
  private stopping = false;
  private readonly stopController = new AbortController();
  private readonly listeners = new Set<() => void>();
  private session: pg.Client | null = null;
  private sessionPid: number | null = null;
  private running: Promise<void> | null = null;
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

  /** The last position this instance has handled (jobs enqueued), or its starting checkpoint. */
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
      if (this.currentState === 'standby') await this.interruptLockWait();
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
      this.session = session;
      try {
        await session.connect();
        if (await this.acquireLock(session)) {
          failures = 0;
          await this.react(session, lost.signal);
        }
      } catch (error) {
        if (this.stopping) break;
        failures += 1;
        const backoff = Math.min(MAX_BACKOFF_MS, 250 * 2 ** failures);
        this.logger.error({ reactor: this.name, backoffMs: backoff, err: error }, 'reactor failed; retrying');
        this.setState('starting');
        await session.end().catch(() => {});
        await delay(backoff, undefined, { signal: this.stopController.signal }).catch(() => {});
      } finally {
        this.session = null;
        this.sessionPid = null;
        await session.end().catch(() => {});
      }
    }
  }

  private async acquireLock(session: pg.Client): Promise<boolean> {
    const key = `reactor:${this.name}`;
    const { rows } = await session.query<{ locked: boolean; pid: number }>(
      'SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked, pg_backend_pid() AS pid',
      [key],
    );
    this.sessionPid = rows[0]?.pid ?? null;
    if (!rows[0]?.locked) {
      if (this.stopping) return false;
      this.setState('standby');
      this.logger.info({ reactor: this.name }, 'reactor on standby');
      // Blocks until the active instance's session ends; stop() cancels the wait.
      await session.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [key]);
    }
    if (this.stopping) return false;
    this.setState('active');
    this.logger.info({ reactor: this.name }, 'reactor active');
    return true;
  }

  private async react(session: pg.Client, lost: AbortSignal): Promise<void> {
    const { rows } = await session.query<{ position: string | null }>(
      'SELECT position FROM reactor_checkpoints WHERE name = $1',
      [this.name],
    );
    this.handled = rows[0]?.position ?? null;
    this.notify();

    let unsaved: Position | null = null;
    let unsavedCount = 0;
    const signal = AbortSignal.any([this.stopController.signal, lost]);
    try {
      for await (const event of this.options.eventStore.subscribeAll(this.handled, signal)) {
        const requests = this.jobsFor(event);
        for (const request of requests) {
          const jobId = jobIdFor(event.id, request.name);
          await this.options.jobs.add(request, jobId);
          this.logger.info(
            { reactor: this.name, queue: request.queue, jobId, eventType: event.type },
            'job enqueued',
          );
        }
        unsavedCount += 1;
        if (requests.length > 0 || unsavedCount >= CHECKPOINT_EVERY) {
          await this.saveCheckpoint(session, event.position);
          unsaved = null;
          unsavedCount = 0;
        } else {
          unsaved = event.position;
        }
        this.handled = event.position;
        this.notify();
      }
    } finally {
      if (unsaved && !lost.aborted) {
        await this.saveCheckpoint(session, unsaved).catch((error) =>
          this.logger.warn({ reactor: this.name, err: error }, 'could not save the checkpoint'),
        );
      }
    }
    if (lost.aborted) throw lost.reason;
  }

  private jobsFor(event: RecordedEvent): readonly JobRequest[] {
    const { reactions } = this.options;
    const reaction = Object.hasOwn(reactions, event.type) ? reactions[event.type] : undefined;
    const result = reaction?.(event) ?? null;
    if (result === null) return [];
    return isJobList(result) ? result : [result];
  }

  private async saveCheckpoint(session: pg.Client, position: Position): Promise<void> {
    await session.query(
      `INSERT INTO reactor_checkpoints (name, position, updated_at) VALUES ($1, $2, now())
       ON CONFLICT (name) DO UPDATE SET position = excluded.position, updated_at = excluded.updated_at`,
      [this.name, position],
    );
  }

  /** A backend blocked in pg_advisory_lock only notices a cancel; closing our socket alone would leave it waiting. */
  private async interruptLockWait(): Promise<void> {
    const pid = this.sessionPid;
    if (pid !== null) {
      const client = new pg.Client({ connectionString: this.options.databaseUrl });
      client.on('error', () => {});
      try {
        await client.connect();
        await client.query('SELECT pg_cancel_backend($1)', [pid]);
      } catch (error) {
        this.logger.warn({ reactor: this.name, err: error }, 'could not cancel the lock wait');
      } finally {
        await client.end().catch(() => {});
      }
    }
    await this.session?.end().catch(() => {});
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
