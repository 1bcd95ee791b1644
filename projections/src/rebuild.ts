import { type EventStore, isUnreadable, type LogEntry, type Position } from '@licensestore/domain/events';
import type { Database } from '@licensestore/platform/db';
import type { Logger } from '@licensestore/platform/logging';
import { forgiveParkedEvents } from '@licensestore/platform/parked-events';
import { readableEvents } from '@licensestore/platform/readmodel';
import { type Kysely, sql } from 'kysely';
import type pg from 'pg';
import { ensureCheckpoint, notifyCheckpoint, readCheckpoint } from './checkpoints.js';
import { transactionWithCopy } from './copy-rows.js';
import { createReaderIndexes, type Projector } from './projector.js';
import { readBatches } from './read-batches.js';
import { parkUnreadable } from './unreadable.js';

const DEFAULT_BATCH = 5000;
const SWAP_ATTEMPTS = 5;
const PROGRESS_EVERY = 100_000;
const LOCK_NOT_AVAILABLE = '55P03';

export interface RebuildOptions {
  db: Kysely<Database>;
  /** The same database's pool: the shadows are written on connections of their own, through which COPY goes. */
  pool: pg.Pool;
  store: EventStore;
  projector: Projector;
  log: Logger;
  /** Events read and written per transaction while catching up. */
  batchSize?: number | undefined;
  signal?: AbortSignal | undefined;
  /** Do nothing when the stored version already is the code's (another process rebuilt it meanwhile). */
  onlyIfStale?: boolean;
}

export interface RebuildResult {
  projector: string;
  /** The events it applied (those that do not read are parked, not counted). */
  events: number;
  position: Position | null;
  /** From the start of the rebuild until this projector was swapped in. */
  durationMs: number;
  /** Of that, the time this projector's writes took (not reading the log; in one pass, beside the others'). */
  writeMs: number;
}

/** The options of a rebuild, with the projectors to rebuild together. */
export interface RebuildManyOptions extends Omit<RebuildOptions, 'projector'> {
  projectors: readonly Projector[];
}

export const shadowSchema = (projector: Projector) => `rebuild_${projector.name}`;

/**
 * Builds the projector's tables from the start of the log in a shadow schema (the readers' indexes once it has
 * caught up, not row by row on the way), then swaps them in with the checkpoint in one transaction, so readers
 * see the old model until the new one is complete. A live runner keeps going: its guarded checkpoint update waits
 * for the swap and then fails, and it resubscribes from the new checkpoint. One rebuild per projector at a time
 * (advisory lock); returns null when skipped.
 */
export async function rebuildProjector(options: RebuildOptions): Promise<RebuildResult | null> {
  const [result] = await rebuildProjectors({ ...options, projectors: [options.projector] });
  return result ?? null;
}

/**
 * Rebuilds several projectors as `rebuildProjector` does each, in one pass over the log: each batch is read once
 * and written to every projector's shadow tables at once, each in its own transaction; then each swaps in on its
 * own. Returns the projectors rebuilt, in the order given (those skipped as already current left out).
 */
export async function rebuildProjectors(options: RebuildManyOptions): Promise<RebuildResult[]> {
  const { db } = options;
  // Locks taken in one order whatever the caller's, so two rebuilds of overlapping sets cannot deadlock.
  const byName = [...options.projectors].sort((a, b) => a.name.localeCompare(b.name));
  const lockKey = (projector: Projector) => `licensestore:rebuild:${projector.name}`;
  return db.connection().execute(async (connection) => {
    const locked: Projector[] = [];
    try {
      for (const projector of byName) {
        await sql`SELECT pg_advisory_lock(hashtextextended(${lockKey(projector)}, 0))`.execute(connection);
        locked.push(projector);
      }
      const stale: Projector[] = [];
      for (const projector of options.projectors) {
        const checkpoint = options.onlyIfStale ? await readCheckpoint(db, projector.name) : undefined;
        if (checkpoint?.version !== projector.version) stale.push(projector);
      }
      return stale.length > 0 ? await rebuildLocked(options, stale) : [];
    } finally {
      for (const projector of locked) {
        await sql`SELECT pg_advisory_unlock(hashtextextended(${lockKey(projector)}, 0))`
          .execute(connection)
          .catch(() => {});
      }
    }
  });
}

/** A projector being rebuilt: its shadow schema and the time spent writing to it. */
interface Shadow {
  projector: Projector;
  schema: string;
  writeMs: number;
}

/** Ids of the entries of a batch that do not read. */
const unreadableIds = (batch: readonly LogEntry[]) => batch.filter(isUnreadable).map((entry) => entry.id);

async function timedWrite<T>(shadow: Shadow, write: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await write();
  } finally {
    shadow.writeMs += performance.now() - started;
  }
}

async function rebuildLocked(options: RebuildManyOptions, projectors: Projector[]): Promise<RebuildResult[]> {
  const { db, store, log, signal } = options;
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  const started = performance.now();
  const shadows: Shadow[] = projectors.map((projector) => ({
    projector,
    schema: shadowSchema(projector),
    writeMs: 0,
  }));
  const names = projectors.map((projector) => projector.name);
  /** What the catch-up met that still does not read: parked rows for it stay, the others are forgiven at the swap. */
  const unreadable: string[] = [];
  try {
    for (const shadow of shadows) {
      log.info({ projector: shadow.projector.name, schema: shadow.schema }, 'rebuild started');
      await timedWrite(shadow, async () => {
        // A schema left by a rebuild that died is ours to drop: we hold the rebuild lock.
        await sql`DROP SCHEMA IF EXISTS ${sql.id(shadow.schema)} CASCADE`.execute(db);
        await sql`CREATE SCHEMA ${sql.id(shadow.schema)}`.execute(db);
        await shadow.projector.createTables(db, shadow.schema);
      });
    }
    let position: Position | null = null;
    let events = 0;
    for await (const batch of readBatches(store, null, batchSize, signal)) {
      position = (batch[batch.length - 1] as LogEntry).position;
      // Each projector writes on its own connection: Postgres works on several while this process builds the next.
      // All are let finish before a failure is thrown, so none still writes to a shadow that is being dropped.
      const written = await Promise.allSettled(
        shadows.map((shadow) =>
          timedWrite(shadow, () =>
            transactionWithCopy(options.pool, async (trx, copy) =>
              shadow.projector.apply(trx, await parkUnreadable(trx, batch, shadow.projector.name, log), {
                schema: shadow.schema,
                log,
                copy,
              }),
            ),
          ),
        ),
      );
      const failed = written.find((write) => write.status === 'rejected');
      if (failed) throw failed.reason;
      unreadable.push(...unreadableIds(batch));
      const applied = readableEvents(batch).length;
      if (Math.floor((events + applied) / PROGRESS_EVERY) > Math.floor(events / PROGRESS_EVERY)) {
        log.info({ projectors: names, events: events + applied, position }, 'rebuild catching up');
      }
      events += applied;
    }
    // The readers' indexes, one sorted pass each over the caught-up tables, each projector's on its own connection.
    const indexed = await Promise.allSettled(
      shadows.map((shadow) =>
        timedWrite(shadow, () => createReaderIndexes(db, shadow.projector, shadow.schema)),
      ),
    );
    const unindexed = indexed.find((outcome) => outcome.status === 'rejected');
    if (unindexed) throw unindexed.reason;
    const results: RebuildResult[] = [];
    for (const shadow of shadows) {
      await timedWrite(shadow, async () => {
        for (const table of shadow.projector.tables) {
          await sql`ANALYZE ${sql.table(`${shadow.schema}.${table}`)}`.execute(db);
        }
      });
      const swapped = await timedWrite(shadow, () =>
        swapWithRetries(options, shadow, position, batchSize, unreadable),
      );
      const result = {
        projector: shadow.projector.name,
        events: events + swapped.events,
        position: swapped.position,
        durationMs: Math.round(performance.now() - started),
        writeMs: Math.round(shadow.writeMs),
      };
      log.info(result, 'rebuild swapped in');
      results.push(result);
    }
    return results;
  } catch (error) {
    for (const { schema } of shadows) {
      await sql`DROP SCHEMA IF EXISTS ${sql.id(schema)} CASCADE`.execute(db).catch(() => {});
    }
    throw error;
  }
}

async function swapWithRetries(
  options: RebuildManyOptions,
  shadow: Shadow,
  from: Position | null,
  batchSize: number,
  unreadable: readonly string[],
) {
  for (let attempt = 1; ; attempt++) {
    options.signal?.throwIfAborted();
    try {
      return await swap(options, shadow, from, batchSize, unreadable);
    } catch (error) {
      if ((error as { code?: string }).code !== LOCK_NOT_AVAILABLE || attempt >= SWAP_ATTEMPTS) throw error;
      options.log.warn(
        { projector: shadow.projector.name, attempt },
        'rebuild swap waited too long for readers; trying again',
      );
    }
  }
}

/**
 * The short final transaction: lock the checkpoint row (a live runner's batch finishes first, its next one
 * waits), apply what was appended since the catch-up, replace the live tables, take the projector off the parked
 * events it has now read, move the checkpoint.
 */
async function swap(
  options: RebuildManyOptions,
  shadow: Shadow,
  from: Position | null,
  batchSize: number,
  caughtUpUnreadable: readonly string[],
) {
  const { pool, store, log } = options;
  const { projector, schema } = shadow;
  return transactionWithCopy(pool, async (trx, copy) => {
    // Bounded: a long reader query must not queue every other reader behind our DROP; we retry instead.
    await sql`SET LOCAL lock_timeout = '5s'`.execute(trx);
    await ensureCheckpoint(trx, projector.name, projector.version);
    await trx
      .selectFrom('projection_checkpoints')
      .select('position')
      .where('name', '=', projector.name)
      .forUpdate()
      .execute();
    let position = from;
    let events = 0;
    const unreadable = [...caughtUpUnreadable];
    for (;;) {
      const batch = await store.readAll(position, batchSize);
      if (batch.length === 0) break;
      unreadable.push(...unreadableIds(batch));
      const readable = await parkUnreadable(trx, batch, projector.name, log);
      await projector.apply(trx, readable, { schema, log, copy });
      position = (batch[batch.length - 1] as LogEntry).position;
      events += readable.length;
      if (batch.length < batchSize) break;
    }
    for (const table of projector.tables) {
      await sql`DROP TABLE IF EXISTS ${sql.table(`public.${table}`)}`.execute(trx);
      await sql`ALTER TABLE ${sql.table(`${schema}.${table}`)} SET SCHEMA public`.execute(trx);
    }
    await sql`DROP SCHEMA ${sql.id(schema)}`.execute(trx);
    await forgiveParkedEvents(trx, projector.name, unreadable);
    await trx
      .updateTable('projection_checkpoints')
      .set({ position, version: projector.version, updated_at: sql<Date>`now()` })
      .where('name', '=', projector.name)
      .execute();
    if (position !== null) await notifyCheckpoint(trx, projector.name, position);
    return { position, events };
  });
}
