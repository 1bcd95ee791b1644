import type {
  Mismatch,
  ProjectorCompared,
  RowDifference,
  TableComparison,
  VerifyProgress,
  VerifyReport,
} from '@licensestore/shared/audit-verify';
import type { Database } from '@licensestore/shared/db';
import type { EventStore, Position } from '@licensestore/shared/eventstore';
import type { Logger } from '@licensestore/shared/logging';
import { waitForProjections } from '@licensestore/shared/readmodel';
import { type Kysely, sql } from 'kysely';
import type pg from 'pg';
import type { Projector } from '../projector.js';
import { allProjectors } from '../projectors.js';
import { compareTable } from './compare.js';
import { explain, streamReader } from './explain.js';
import { createShadows, dropShadows, extendShadow, replayIntoShadows, verifySchema } from './shadow.js';

const DEFAULT_BATCH = 5000;
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
 * until C >= P; then, in one REPEATABLE READ transaction, read C and, if the live model has moved past P, replay
 * (P, C] into the shadow inside that same transaction, and compare. The snapshot pins the live rows at C while
 * the shadow is brought to C, so the comparison is exact whatever the role does meanwhile, and it never has to
 * stop. Comparing only rows that cannot have changed since P would miss tampering with the others; stopping the
 * role would take the store's read side down for the length of an audit.
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
    for (const projector of projectors) {
      signal?.throwIfAborted();
      await progress({
        phase: 'comparing',
        projector: projector.name,
        done: tables.length,
        total: tableCount,
      });
      if (replay.position !== null) await waitForLive(options, projector, replay.position);
      const result = await compareProjector(options, projector, replay.position, limit - differences.length);
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

/** One REPEATABLE READ transaction: the live checkpoint and rows as of one snapshot, the shadow brought level. */
async function compareProjector(
  options: VerifyOptions,
  projector: Projector,
  replayed: Position | null,
  limit: number,
) {
  const { db, store, log } = options;
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const checkpoint = await trx
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
      const eventsAfterReplay =
        live !== null && live !== replayed
          ? await extendShadow(trx, {
              store,
              projector,
              from: replayed,
              to: live,
              batchSize: DEFAULT_BATCH,
              log,
            })
          : 0;
      const tables: TableComparison[] = [];
      const differences: RowDifference[] = [];
      for (const table of projector.tables) {
        const result = await compareTable(trx, {
          projector: projector.name,
          table,
          liveSchema: 'public',
          shadowSchema: verifySchema(projector),
          limit: limit - differences.length,
        });
        tables.push(result.comparison);
        differences.push(...result.differences);
      }
      return { compared: { name: projector.name, position: live, eventsAfterReplay }, tables, differences };
    });
}
