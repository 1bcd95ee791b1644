import type { Position } from '@licensestore/domain/events';
import type { Logger } from '@licensestore/platform/logging';
import type pg from 'pg';
import type { JobRequest } from './queues.js';

/** A job the reactor derived from the event at `position`. */
export interface IntendedJob {
  request: JobRequest;
  jobId: string;
  position: Position;
}

/**
 * Records the jobs a batch of events caused and moves the reactor's checkpoint past that batch, in one statement (one
 * transaction): every position below the checkpoint has its jobs written down in Postgres before Redis is asked to
 * run them. An intent already recorded (a replayed batch) is kept as it was.
 */
export async function recordProgress(
  session: pg.ClientBase,
  reactor: string,
  position: Position,
  jobs: readonly IntendedJob[],
): Promise<void> {
  await session.query(
    `WITH intents AS (
       INSERT INTO reactor_job_intents (queue, job_id, reactor, position, name, data, run_at)
       SELECT queue, job_id, $1, position, name, data, now() + delay_ms * interval '1 millisecond'
         FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::jsonb[], $8::float8[])
           AS job(queue, job_id, position, name, data, delay_ms)
       ON CONFLICT (queue, job_id) DO NOTHING
     )
     INSERT INTO reactor_checkpoints (name, position, updated_at) VALUES ($1, $2, now())
     ON CONFLICT (name) DO UPDATE SET position = excluded.position, updated_at = excluded.updated_at`,
    [
      reactor,
      position,
      jobs.map((job) => job.request.queue),
      jobs.map((job) => job.jobId),
      jobs.map((job) => job.position),
      jobs.map((job) => job.request.name),
      jobs.map((job) => JSON.stringify(job.request.data)),
      jobs.map((job) => job.request.delayMs ?? 0),
    ],
  );
}

export async function readCheckpoint(session: pg.ClientBase, reactor: string): Promise<Position | null> {
  const { rows } = await session.query<{ position: string | null }>(
    'SELECT position FROM reactor_checkpoints WHERE name = $1',
    [reactor],
  );
  return rows[0]?.position ?? null;
}

/**
 * The jobs the reactor derived from events after `after` (every one when null) that no worker has finished, oldest
 * first, each delayed by what is left of its delay. Positions are fixed-width strings: compared byte by byte.
 */
export async function unfinishedJobs(
  session: pg.ClientBase,
  reactor: string,
  after: Position | null,
): Promise<IntendedJob[]> {
  const { rows } = await session.query<{
    queue: string;
    job_id: string;
    position: string;
    name: string;
    data: unknown;
    delay_ms: number;
  }>(
    `SELECT queue, job_id, position, name, data,
            greatest(0, ceil(extract(epoch FROM run_at - now()) * 1000))::float8 AS delay_ms
       FROM reactor_job_intents
      WHERE reactor = $1 AND ($2::text IS NULL OR position COLLATE "C" > $2::text COLLATE "C")
      ORDER BY position COLLATE "C", queue, job_id`,
    [reactor, after],
  );
  return rows.map((row) => ({
    jobId: row.job_id,
    position: row.position,
    request: {
      queue: row.queue,
      name: row.name,
      data: row.data,
      ...(row.delay_ms > 0 ? { delayMs: row.delay_ms } : {}),
    },
  }));
}

const FLUSH_AFTER_MS = 50;
const FLUSH_EVERY = 500;

/**
 * Crosses out the intents of finished jobs, in batches: a round trip per job would cost every order several. An
 * intent left behind (the process died before its batch was written) only means that job runs once more after a
 * Redis loss, which every job survives (they are idempotent at their side effects).
 */
export class FinishedJobs {
  private pending: Array<{ queue: string; jobId: string }> = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly pool: pg.Pool,
    private readonly logger: Logger,
  ) {}

  finished(queue: string, jobId: string): void {
    this.pending.push({ queue, jobId });
    if (this.pending.length >= FLUSH_EVERY) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_AFTER_MS);
  }

  /** Resolves once every job reported so far is crossed out (or its write failed and was logged). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = [];
    if (batch.length > 0) {
      this.flushing = this.flushing.then(() =>
        this.pool
          .query(
            `DELETE FROM reactor_job_intents
              WHERE (queue, job_id) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
            [batch.map((job) => job.queue), batch.map((job) => job.jobId)],
          )
          .then(
            () => {},
            (error: unknown) =>
              this.logger.warn(
                { jobs: batch.length, err: error },
                'could not cross out finished jobs; they run again only if Redis loses its data',
              ),
          ),
      );
    }
    return this.flushing;
  }
}
