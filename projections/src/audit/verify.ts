import type {
  Mismatch,
  ProjectorCompared,
  RowDifference,
  TableComparison,
  VerifyProgress,
  VerifyReport,
} from '@licensestore/domain/audit-verify';
import type { EventStore, Position } from '@licensestore/domain/events';
import type { Database } from '@licensestore/platform/db';
import type { Logger } from '@licensestore/platform/logging';
import { waitForProjections } from '@licensestore/platform/readmodel';
import { type Kysely, sql } from 'kysely';
import type pg from 'pg';
import type { Projector } from '../projector.js';
import { allProjectors } from '../projectors.js';
import { compareTable } from './compare.js';
import { explain, streamReader } from './explain.js';
import { createShadows, dropShadows, extendShadow, replayIntoShadows, verifySchema } from './shadow.js';

/**
 * Events per shadow transaction. Each one holds back every reader of the log while it writes (the Postgres event
 * store reads only below the oldest running transaction), so it is kept short; fewer events per batch cost the
 * replay little (a rebuild at 1,000 runs at about nine tenths of its speed at 5,000).
 */
const DEFAULT_BATCH = 1000;
/** Mismatches explained and reported; the rest are counted. */
export const DEFAULT_MISMATCH_LIMIT = 50;
/** How long a live projector that is behind the replay may take to catch up before the verification gives up. */
const DEFAULT_LIVE_WAIT_MS = 30_000;
const LOCK_KEY = 'licensestore:audit-verify';

export interface VerifyOptions {
  db: Kysely<Database>;
  /** The same database's pool: waiting for a live checkpoint LISTENs on it. */
  pool: pg.Pool;
  store: EventStore;
  log: Logger;
  projectors?: readonly Projector[];
  batchSize?: number;
  mismatchLimit?: number;
  liveWaitMs?: number;
  signal?: AbortSignal;
  /** Awaited: a run that records its progress somewhere has done so before the verification moves on. */
  onProgress?: (progress: VerifyProgress) => void | Promise<void>;
}

export class VerificationRunningError extends Error {
  constructor() {
    super('another verification is running on this database');
    this.name = 'VerificationRunningError';
  }
}

/**
 * Rebuilds every read model from the whole log into `verify_<name>` shadow schemas and compares each with its
 * live tables, row by row. Never writes a live table or a checkpoint; one verification per database at a time
 * (a session advisory lock; a second one is refused, not queued).
 *
 * Which position to compare at: the replay reads the log to its end, position P. Each live projector stands at
 * its own checkpoint C, which a running `projections` role keeps moving, and the rows match the checkpoint
 * exactly because both commit in one transaction (ADR 004). So for each projector: wait (bounded, by LISTEN)
 * until C >= P; bring the shadow to C in short transactions; then hold the checkpoints still for a moment, bring
 * the shadow to where they stand, open a READ ONLY REPEATABLE READ snapshot and let them go; compare in that
 * snapshot. It pins the live rows at the shadow's position for as long as the comparison takes, and, having no
 * transaction id, holds back none of the log's readers meanwhile (ADR 026). Comparing only rows that cannot have
 * changed since P would miss tampering with the others; stopping the role would take the store's read side down
 * for the length of an audit.
 */
export async function verifyReadModels(options: VerifyOptions): Promise<VerifyReport> {
  return options.db.connection().execute(async (connection) => {
    const { rows } = await sql<{ locked: boolean }>`
      SELECT pg_try_advisory_lock(hashtextextended(${LOCK_KEY}, 0)) AS locked`.execute(connection);
    if (!rows[0]?.locked) throw new VerificationRunningError();
    try {
      return await verifyLocked(options);
    } finally {
      await sql`SELECT pg_advisory_unlock(hashtextextended(${LOCK_KEY}, 0))`
        .execute(connection)
        .catch(() => {});
    }
  });
}

async function verifyLocked(options: VerifyOptions): Promise<VerifyReport> {
  const { db, store, log, signal } = options;
  const projectors = options.projectors ?? allProjectors;
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  const progress = options.onProgress ?? (() => {});
  const started = performance.now();
  await createShadows(db, projectors);
  try {
    const total = await logSize(db);
    await progress({ phase: 'replaying', projector: null, done: 0, total });
    const replay = await replayIntoShadows({
      db,
      pool: options.pool,
      store,
      projectors,
      log,
      batchSize,
      signal,
      onBatch: (done) => progress({ phase: 'replaying', projector: null, done, total }),
    });
    const replayMs = performance.now() - started;
    log.info({ events: replay.events, position: replay.position, replayMs }, 'verification replayed the log');

    const limit = options.mismatchLimit ?? DEFAULT_MISMATCH_LIMIT;
    const compared: ProjectorCompared[] = [];
    const tables: TableComparison[] = [];
    const differences: Array<{ difference: RowDifference; projector: Projector; upTo: Position | null }> = [];
    const tableCount = projectors.reduce((sum, projector) => sum + projector.tables.length, 0);
    const comparing = (projector: Projector, done: number) =>
      progress({ phase: 'comparing', projector: projector.name, done, total: tableCount });
    for (const projector of projectors) {
      signal?.throwIfAborted();
      await comparing(projector, tables.length);
      if (replay.position !== null) await waitForLive(options, projector, replay.position);
      const result = await compareProjector(options, projector, {
        replayed: replay.position,
        limit: limit - differences.length,
        onTable: (done) => comparing(projector, tables.length + done),
      });
      compared.push(result.compared);
      tables.push(...result.tables);
      differences.push(
        ...result.differences.map((difference) => ({
          difference,
          projector,
          upTo: result.compared.position,
        })),
      );
    }

    const readStream = streamReader(store);
    const mismatches: Mismatch[] = [];
    for (const { difference, projector, upTo } of differences) {
      await progress({
        phase: 'explaining',
        projector: projector.name,
        done: mismatches.length,
        total: differences.length,
      });
      mismatches.push(await explain(difference, { projector, db, readStream, upTo }));
    }
    const counted = tables.reduce((sum, table) => sum + table.missing + table.extra + table.different, 0);
    return {
      passed: counted === 0,
      events: replay.events,
      position: replay.position,
      replayMs: Math.round(replayMs),
      durationMs: Math.round(performance.now() - started),
      projectors: compared,
      tables,
      mismatches,
      unshownMismatches: counted - mismatches.length,
      unreadable: replay.unreadable.map((event) => ({
        stream: event.streamId,
        type: event.type,
        position: event.position,
        at: event.createdAt.toISOString(),
        reason: event.reason,
      })),
    };
  } finally {
    await dropShadows(db, projectors).catch((error: unknown) =>
      log.warn({ err: error }, 'could not drop the verification schemas; the next verification drops them'),
    );
  }
}

/** The Postgres event store's size, for progress; null when the log is elsewhere (EventStoreDB). */
async function logSize(db: Kysely<Database>): Promise<number | null> {
  const { rows } = await sql<{ exists: boolean }>`
    SELECT to_regclass('event_store.events') IS NOT NULL AS exists`.execute(db);
  if (!rows[0]?.exists) return null;
  const counted = await sql<{ count: number }>`SELECT count(*)::int AS count FROM event_store.events`.execute(
    db,
  );
  return counted.rows[0]?.count ?? null;
}

async function waitForLive(options: VerifyOptions, projector: Projector, position: Position) {
  const reached = await waitForProjections(options.pool, position, {
    projectors: [projector.name],
    timeoutMs: options.liveWaitMs ?? DEFAULT_LIVE_WAIT_MS,
  });
  if (!reached) {
    options.log.warn({ projector: projector.name, position }, 'live projector has not reached the replay');
  }
}

/** The live projector's checkpoint, refused when it cannot be compared with a replay that reached `replayed`. */
async function liveCheckpoint(
  executor: Kysely<Database>,
  projector: Projector,
  replayed: Position | null,
): Promise<Position | null> {
  const checkpoint = await executor
    .selectFrom('projection_checkpoints')
    .select(['position', 'version'])
    .where('name', '=', projector.name)
    .executeTakeFirst();
  const live = checkpoint?.position ?? null;
  if (checkpoint && checkpoint.version !== projector.version) {
    throw new Error(
      `live ${projector.name} is version ${checkpoint.version}, the code's is ${projector.version}: ` +
        'a rebuild is due before it can be verified',
    );
  }
  if (replayed !== null && (live === null || live < replayed)) {
    throw new Error(
      `live ${projector.name} stands at ${live ?? 'the start of the log'}, behind the log's end ${replayed}: ` +
        'is the projections role running?',
    );
  }
  return live;
}

/**
 * A READ ONLY REPEATABLE READ snapshot in which the live checkpoint stands where the shadow does. The shadow is
 * first brought to the live checkpoint in short transactions while the role keeps projecting; then the checkpoints
 * are held still (a SHARE lock on their table: projectors wait to commit their next batch, nobody else does) only
 * while the shadow replays what arrived meanwhile and the snapshot is taken. Neither the lock nor the snapshot
 * takes a transaction id, so neither holds back a reader of the log.
 */
async function levelSnapshot(options: VerifyOptions, projector: Projector, replayed: Position | null) {
  const { db, pool, store, log } = options;
  let shadow = replayed;
  let eventsAfterReplay = 0;
  const bringShadowTo = async (live: Position | null) => {
    if (live === null || live === shadow) return;
    const batchSize = options.batchSize ?? DEFAULT_BATCH;
    eventsAfterReplay += await extendShadow(pool, {
      store,
      projector,
      from: shadow,
      to: live,
      batchSize,
      log,
    });
    shadow = live;
  };
  await bringShadowTo(await liveCheckpoint(db, projector, replayed));
  const pin = await db.startTransaction().execute();
  try {
    await sql`LOCK TABLE projection_checkpoints IN SHARE MODE`.execute(pin);
    await bringShadowTo(await liveCheckpoint(pin, projector, replayed));
    const snapshot = await db
      .startTransaction()
      .setIsolationLevel('repeatable read')
      .setAccessMode('read only')
      .execute();
    try {
      // The first read takes the snapshot, with the checkpoints still held where the shadow stands.
      const live = await liveCheckpoint(snapshot, projector, replayed);
      return { snapshot, compared: { name: projector.name, position: live, eventsAfterReplay } };
    } catch (error) {
      await snapshot.rollback().execute();
      throw error;
    }
  } finally {
    await pin.rollback().execute();
  }
}

/** The live tables and the shadow compared in one snapshot in which both stand at the same position. */
async function compareProjector(
  options: VerifyOptions,
  projector: Projector,
  {
    replayed,
    limit,
    onTable,
  }: {
    replayed: Position | null;
    limit: number;
    /** Before each table but the first, whose progress was reported before the wait for the live model. */
    onTable: (done: number) => void | Promise<void>;
  },
) {
  const { snapshot, compared } = await levelSnapshot(options, projector, replayed);
  try {
    const tables: TableComparison[] = [];
    const differences: RowDifference[] = [];
    for (const table of projector.tables) {
      if (tables.length > 0) await onTable(tables.length);
      const result = await compareTable(snapshot, {
        projector: projector.name,
        table,
        liveSchema: 'public',
        shadowSchema: verifySchema(projector),
        limit: limit - differences.length,
      });
      tables.push(result.comparison);
      differences.push(...result.differences);
    }
    return { compared, tables, differences };
  } finally {
    await snapshot.rollback().execute();
  }
}
