import {
  type EventStore,
  isUnreadable,
  type LogEntry,
  type Position,
  type UnreadableEvent,
} from '@licensestore/domain/events';
import type { Database } from '@licensestore/platform/db';
import type { Logger } from '@licensestore/platform/logging';
import { readableEvents } from '@licensestore/platform/readmodel';
import { type Kysely, sql } from 'kysely';
import type pg from 'pg';
import { transactionWithCopy } from '../copy-rows.js';
import type { Projector } from '../projector.js';
import { readBatches } from '../read-batches.js';
import { tableIn } from '../sql.js';

export const verifySchema = (projector: Projector) => `verify_${projector.name}`;

/**
 * Empty tables for each projector in its own `verify_<name>` schema, made for one fast replay: UNLOGGED (they live
 * for one verification and are dropped after it, so writing them to the WAL would only slow the replay down),
 * and without the readers' indexes (they would cost the replay more than anything else): only the keys, which the
 * projectors load by and the comparison joins on, unique columns, whose refusals are part of what a projector
 * does, and the indexes a projector's own writes read by. A schema left by a verification that died is dropped
 * first (the caller holds the verification lock).
 */
export async function createShadows(db: Kysely<Database>, projectors: readonly Projector[]): Promise<void> {
  await dropShadows(db, projectors);
  for (const projector of projectors) {
    const schema = verifySchema(projector);
    await sql`CREATE SCHEMA ${sql.id(schema)}`.execute(db);
    await projector.createTables(db, schema);
    for (const table of projector.tables) {
      await sql`ALTER TABLE ${tableIn(schema, table)} SET UNLOGGED`.execute(db);
    }
  }
}

export async function dropShadows(db: Kysely<Database>, projectors: readonly Projector[]): Promise<void> {
  for (const projector of projectors) {
    await sql`DROP SCHEMA IF EXISTS ${sql.id(verifySchema(projector))} CASCADE`.execute(db);
  }
}

/**
 * One projector's batch into its shadow, in a transaction of its own: short, so the verification never holds back
 * the log's readers (the Postgres event store reads only below the oldest running transaction) for longer than one
 * batch takes to write.
 */
const applyToShadow = (pool: pg.Pool, projector: Projector, events: readonly LogEntry[], log: Logger) =>
  transactionWithCopy(pool, async (trx, copy) => {
    // Nothing here must survive a crash: the shadows are dropped anyway.
    await sql`SET LOCAL synchronous_commit = off`.execute(trx);
    await projector.apply(trx, readableEvents(events), { schema: verifySchema(projector), log, copy });
  });

/**
 * Replays the log from the start to its end into every shadow, reading each batch once for all projectors. Each
 * projector writes a batch in a transaction of its own, all of them at once: while Postgres writes one
 * projector's rows, node folds the next one's, so both cores work (give `pool` a connection per projector).
 * Returns how many events and the position of the last one (null for an empty log), and those that do not read.
 */
export async function replayIntoShadows(options: {
  db: Kysely<Database>;
  pool: pg.Pool;
  store: EventStore;
  projectors: readonly Projector[];
  log: Logger;
  batchSize: number;
  signal?: AbortSignal | undefined;
  onBatch: (events: number) => void | Promise<void>;
}): Promise<{ events: number; position: Position | null; unreadable: UnreadableEvent[] }> {
  const { db, store, projectors, log, batchSize, signal } = options;
  let events = 0;
  let position: Position | null = null;
  const unreadable: UnreadableEvent[] = [];
  for await (const batch of readBatches(store, null, batchSize, signal)) {
    unreadable.push(...batch.filter(isUnreadable));
    await Promise.all(projectors.map((projector) => applyToShadow(options.pool, projector, batch, log)));
    events += batch.length;
    position = (batch[batch.length - 1] as LogEntry).position;
    await options.onBatch(events);
  }
  for (const projector of projectors) {
    for (const table of projector.tables) {
      await sql`ANALYZE ${tableIn(verifySchema(projector), table)}`.execute(db);
    }
  }
  return { events, position, unreadable };
}

/**
 * Brings one projector's shadow from `from` to `to`, a batch per transaction: the live model stands past the
 * replay, and the shadow must stand where the live tables stand before the two are compared.
 */
export async function extendShadow(
  pool: pg.Pool,
  options: {
    store: EventStore;
    projector: Projector;
    from: Position | null;
    to: Position;
    batchSize: number;
    log: Logger;
  },
): Promise<number> {
  const { store, projector, from, to, batchSize, log } = options;
  let events = 0;
  for await (const batch of readBatches(store, from, batchSize)) {
    const upTo = batch.filter((event) => event.position <= to);
    if (upTo.length > 0) await applyToShadow(pool, projector, upTo, log);
    events += upTo.length;
    if (upTo.length < batch.length || (batch[batch.length - 1] as LogEntry).position === to) break;
  }
  return events;
}
