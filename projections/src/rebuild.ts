import type { Database } from '@licensestore/shared/db';
import type { EventStore, Position, RecordedEvent } from '@licensestore/shared/eventstore';
import type { Logger } from '@licensestore/shared/logging';
import { type Kysely, sql } from 'kysely';
import { ensureCheckpoint, notifyCheckpoint, readCheckpoint } from './checkpoints.js';
import type { Projector } from './projector.js';
import { readBatches } from './read-batches.js';

const DEFAULT_BATCH = 5000;
const SWAP_ATTEMPTS = 5;
const PROGRESS_EVERY = 100_000;
const LOCK_NOT_AVAILABLE = '55P03';

export interface RebuildOptions {
  db: Kysely<Database>;
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
  events: number;
  position: Position | null;
  durationMs: number;
}

export const shadowSchema = (projector: Projector) => `rebuild_${projector.name}`;

/**
 * Builds the projector's tables from the start of the log in a shadow schema, then swaps them in with the
 * checkpoint in one transaction, so readers see the old model until the new one is complete. A live runner
 * keeps going: its guarded checkpoint update waits for the swap and then fails, and it resubscribes from the
 * new checkpoint. One rebuild per projector at a time (advisory lock); returns null when skipped.
 */
export async function rebuildProjector(options: RebuildOptions): Promise<RebuildResult | null> {
  const { db, projector } = options;
  const lockKey = `licensestore:rebuild:${projector.name}`;
  return db.connection().execute(async (connection) => {
    await sql`SELECT pg_advisory_lock(hashtextextended(${lockKey}, 0))`.execute(connection);
    try {
      if (options.onlyIfStale) {
        const checkpoint = await readCheckpoint(db, projector.name);
        if (checkpoint?.version === projector.version) return null;
      }
      return await rebuildLocked(options);
    } finally {
      await sql`SELECT pg_advisory_unlock(hashtextextended(${lockKey}, 0))`
        .execute(connection)
        .catch(() => {});
    }
  });
}

async function rebuildLocked(options: RebuildOptions): Promise<RebuildResult> {
  const { db, store, projector, log, signal } = options;
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  const schema = shadowSchema(projector);
  const started = performance.now();
  log.info({ projector: projector.name, schema }, 'rebuild started');
  // A schema left by a rebuild that died is ours to drop: we hold the rebuild lock.
  await sql`DROP SCHEMA IF EXISTS ${sql.id(schema)} CASCADE`.execute(db);
  await sql`CREATE SCHEMA ${sql.id(schema)}`.execute(db);
  try {
    await projector.createTables(db, schema);
    let position: Position | null = null;
    let events = 0;
    for await (const batch of readBatches(store, null, batchSize, signal)) {
      position = (batch[batch.length - 1] as RecordedEvent).position;
      await db.transaction().execute((trx) => projector.apply(trx, batch, { schema, log }));
      if (Math.floor((events + batch.length) / PROGRESS_EVERY) > Math.floor(events / PROGRESS_EVERY)) {
        log.info(
          { projector: projector.name, events: events + batch.length, position },
          'rebuild catching up',
        );
      }
      events += batch.length;
    }
    for (const table of projector.tables) await sql`ANALYZE ${sql.table(`${schema}.${table}`)}`.execute(db);

    for (let attempt = 1; ; attempt++) {
      signal?.throwIfAborted();
      try {
        const swapped = await swap(options, schema, position, batchSize);
        events += swapped.events;
        const result = {
          projector: projector.name,
          events,
          position: swapped.position,
          durationMs: Math.round(performance.now() - started),
        };
        log.info(result, 'rebuild swapped in');
        return result;
      } catch (error) {
        if ((error as { code?: string }).code !== LOCK_NOT_AVAILABLE || attempt >= SWAP_ATTEMPTS) throw error;
        log.warn(
          { projector: projector.name, attempt },
          'rebuild swap waited too long for readers; trying again',
        );
      }
    }
  } catch (error) {
    await sql`DROP SCHEMA IF EXISTS ${sql.id(schema)} CASCADE`.execute(db).catch(() => {});
    throw error;
  }
}

/**
 * The short final transaction: lock the checkpoint row (a live runner's batch finishes first, its next one
 * waits), apply what was appended since the catch-up, replace the live tables, move the checkpoint.
 */
async function swap(options: RebuildOptions, schema: string, from: Position | null, batchSize: number) {
  const { db, store, projector, log } = options;
  return db.transaction().execute(async (trx) => {
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
    for (;;) {
      const batch = await store.readAll(position, batchSize);
      if (batch.length === 0) break;
      await projector.apply(trx, batch, { schema, log });
      position = (batch[batch.length - 1] as RecordedEvent).position;
      events += batch.length;
      if (batch.length < batchSize) break;
    }
    for (const table of projector.tables) {
      await sql`DROP TABLE IF EXISTS ${sql.table(`public.${table}`)}`.execute(trx);
      await sql`ALTER TABLE ${sql.table(`${schema}.${table}`)} SET SCHEMA public`.execute(trx);
    }
    await sql`DROP SCHEMA ${sql.id(schema)}`.execute(trx);
    await trx
      .updateTable('projection_checkpoints')
      .set({ position, version: projector.version, updated_at: sql<Date>`now()` })
      .where('name', '=', projector.name)
      .execute();
    if (position !== null) await notifyCheckpoint(trx, projector.name, position);
    return { position, events };
  });
}
