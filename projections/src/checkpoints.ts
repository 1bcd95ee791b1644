import type { Position } from '@licensestore/domain/events';
import type { Database } from '@licensestore/platform/db';
import {
  formatCheckpointNotification,
  PROJECTION_CHECKPOINT_CHANNEL,
} from '@licensestore/platform/readmodel';
import { type Kysely, sql } from 'kysely';

export interface Checkpoint {
  position: Position | null;
  version: number;
}

export async function readCheckpoint(db: Kysely<Database>, name: string): Promise<Checkpoint | undefined> {
  return db
    .selectFrom('projection_checkpoints')
    .select(['position', 'version'])
    .where('name', '=', name)
    .executeTakeFirst();
}

/** Creates the checkpoint row at the start of the log unless it exists; returns the stored one. */
export async function ensureCheckpoint(
  db: Kysely<Database>,
  name: string,
  version: number,
): Promise<Checkpoint> {
  await db
    .insertInto('projection_checkpoints')
    .values({ name, position: null, version, updated_at: sql<Date>`now()` })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
  const checkpoint = await readCheckpoint(db, name);
  if (!checkpoint) throw new Error(`checkpoint ${name} vanished`);
  return checkpoint;
}

/** Delivered at commit, so a waiter never hears of a checkpoint it cannot read yet. */
export async function notifyCheckpoint(
  db: Kysely<Database>,
  name: string,
  position: Position,
): Promise<void> {
  await sql`SELECT pg_notify(${PROJECTION_CHECKPOINT_CHANNEL}, ${formatCheckpointNotification(name, position)})`.execute(
    db,
  );
}

/** A checkpoint as a runner last saw it: where it stood and the projector version that wrote it. */
export interface CheckpointGuard {
  name: string;
  version: number;
  from: Position | null;
}

/**
 * Moves every checkpoint still at its guard's position and version to `to`, and notifies for each, in one
 * statement (notifications are delivered at commit). Returns the names that moved: one missing was moved by
 * another writer, or its version changed, and must not get this batch's rows.
 */
export async function moveCheckpoints(
  trx: Kysely<Database>,
  guards: readonly CheckpointGuard[],
  to: Position,
): Promise<Set<string>> {
  const { rows } = await sql<{ name: string }>`
    WITH wanted AS (
      SELECT * FROM unnest(${guards.map((guard) => guard.name)}::text[], ${guards.map((guard) => guard.from)}::text[],
                           ${guards.map((guard) => guard.version)}::int[],
                           ${guards.map((guard) => formatCheckpointNotification(guard.name, to))}::text[])
          AS wanted(name, position, version, notification)),
    moved AS (
      UPDATE projection_checkpoints checkpoint SET position = ${to}, updated_at = now()
        FROM wanted
       WHERE checkpoint.name = wanted.name AND checkpoint.position IS NOT DISTINCT FROM wanted.position
         AND checkpoint.version = wanted.version
       RETURNING checkpoint.name)
    SELECT moved.name, pg_notify(${PROJECTION_CHECKPOINT_CHANNEL}, wanted.notification)
      FROM moved JOIN wanted USING (name)`.execute(trx);
  return new Set(rows.map((row) => row.name));
}

/** One checkpoint's guarded move (see moveCheckpoints); false when it was not where `from` says. */
export async function moveCheckpoint(
  trx: Kysely<Database>,
  checkpoint: { name: string; version: number },
  from: Position | null,
  to: Position,
): Promise<boolean> {
  const moved = await moveCheckpoints(
    trx,
    [{ name: checkpoint.name, version: checkpoint.version, from }],
    to,
  );
  return moved.size > 0;
}
