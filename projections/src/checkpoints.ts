import type { Database } from '@licensestore/shared/db';
import type { Position } from '@licensestore/shared/eventstore';
import { formatCheckpointNotification, PROJECTION_CHECKPOINT_CHANNEL } from '@licensestore/shared/readmodel';
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

/**
 * Moves the checkpoint from `from` to `to` and notifies, in one statement (the notification is delivered at
 * commit), unless another writer moved it or its version changed meanwhile: then nothing moves and it says false.
 */
export async function moveCheckpoint(
  trx: Kysely<Database>,
  checkpoint: { name: string; version: number },
  from: Position | null,
  to: Position,
): Promise<boolean> {
  const { rows } = await sql`
    WITH moved AS (
      UPDATE projection_checkpoints SET position = ${to}, updated_at = now()
       WHERE name = ${checkpoint.name} AND position IS NOT DISTINCT FROM ${from} AND version = ${checkpoint.version}
       RETURNING name)
    SELECT pg_notify(${PROJECTION_CHECKPOINT_CHANNEL}, ${formatCheckpointNotification(checkpoint.name, to)})
      FROM moved`.execute(trx);
  return rows.length > 0;
}
