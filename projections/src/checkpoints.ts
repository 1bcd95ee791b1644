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
