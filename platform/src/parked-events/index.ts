import type { ParkedEventView } from '@licensestore/domain/audit';
import type { UnreadableEvent } from '@licensestore/domain/events';
import { type Kysely, type Migration, sql } from 'kysely';
import { migrateToLatest, migratorFor } from '../db/migrate.js';
import type { Logger } from '../logging/index.js';

/** Frozen: never edit a migration that has run; add a new one. */
const migrations: Record<string, Migration> = {
  '2026-11-27-01-parked-events': {
    async up(db) {
      await db.schema
        .createTable('parked_events')
        .addColumn('event_id', 'text', (col) => col.primaryKey())
        .addColumn('position', 'text', (col) => col.notNull())
        .addColumn('stream_id', 'text', (col) => col.notNull())
        .addColumn('event_type', 'text', (col) => col.notNull())
        .addColumn('reason', 'text', (col) => col.notNull())
        .addColumn('consumers', sql`text[]`, (col) => col.notNull())
        .addColumn('first_seen_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
        .execute();
      await sql`CREATE INDEX parked_events_by_position ON parked_events (position COLLATE "C")`.execute(db);
    },
  },
};

/**
 * The table of parked events, tracked apart from the other schemas: the projectors and the reactor park into it and
 * run in roles that migrate on their own. Safe to run concurrently (kysely's migration lock).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not today's types
export const migrateParkedEvents = (db: Kysely<any>) =>
  migrateToLatest(migratorFor(db, migrations, 'parked_events_migrations'), 'parked-events');

/**
 * The statement that parks an unreadable event for `consumer`, as text and values so that any client runs it (a
 * projector's kysely transaction, the reactor's own session). Idempotent: every consumer that meets the event parks it,
 * and the row keeps when it was first seen and adds each consumer once; the reason is the latest reading's.
 */
export function parkStatement(event: UnreadableEvent, consumer: string): { text: string; values: unknown[] } {
  return {
    text: `INSERT INTO parked_events (event_id, position, stream_id, event_type, reason, consumers)
           VALUES ($1, $2, $3, $4, $5, ARRAY[$6::text])
           ON CONFLICT (event_id) DO UPDATE
              SET reason = EXCLUDED.reason,
                  consumers = CASE WHEN $6 = ANY (parked_events.consumers) THEN parked_events.consumers
                                   ELSE parked_events.consumers || $6::text END`,
    values: [event.id, event.position, event.streamId, event.type, event.reason, consumer],
  };
}

/**
 * Takes `consumer` off every parked event it has since read (a rebuild after a fix: an upcaster, a relaxed schema),
 * that is every one but `stillUnreadable`, the ids its rebuild met unreadable again; a row no consumer is left on
 * goes. Run in the transaction that swaps the rebuilt model in, so the list changes exactly when the model that now
 * holds those events does.
 */
export async function forgiveParkedEvents(
  // biome-ignore lint/suspicious/noExplicitAny: writes one table of its own, whatever the caller's Database type
  db: Kysely<any>,
  consumer: string,
  stillUnreadable: readonly string[],
): Promise<void> {
  await sql`UPDATE parked_events SET consumers = array_remove(consumers, ${consumer}::text)
             WHERE ${consumer}::text = ANY (consumers) AND NOT (event_id = ANY (${stillUnreadable}::text[]))`.execute(
    db,
  );
  await sql`DELETE FROM parked_events WHERE cardinality(consumers) = 0`.execute(db);
}

/** The log line every consumer writes when it parks an event; `who` names the consumer as its other lines do. */
export const logParked = (log: Logger, event: UnreadableEvent, who: Record<string, string>) =>
  log.warn(
    {
      ...who,
      eventId: event.id,
      streamId: event.streamId,
      type: event.type,
      position: event.position,
      reason: event.reason,
    },
    'parked an event that does not read; moving past it',
  );

interface ParkedEventRow {
  event_id: string;
  position: string;
  stream_id: string;
  event_type: string;
  reason: string;
  consumers: string[];
  first_seen_at: Date;
  total: string;
}

/**
 * The first `limit` parked events in log order (there are few: each is a defect to look at) and how many there are in
 * all, counted by the same statement so that the two agree while events are being parked.
 */
export async function parkedEventsPage(
  // biome-ignore lint/suspicious/noExplicitAny: reads one table of its own, whatever the caller's Database type
  db: Kysely<any>,
  limit = 1000,
): Promise<{ total: number; events: ParkedEventView[] }> {
  const { rows } = await sql<ParkedEventRow>`
    SELECT event_id, position, stream_id, event_type, reason, consumers, first_seen_at, count(*) OVER () AS total
      FROM parked_events ORDER BY position COLLATE "C" LIMIT ${limit}`.execute(db);
  return {
    total: Number(rows[0]?.total ?? 0),
    events: rows.map((row) => ({
      eventId: row.event_id,
      position: row.position,
      streamId: row.stream_id,
      type: row.event_type,
      reason: row.reason,
      consumers: row.consumers,
      firstSeenAt: row.first_seen_at.toISOString(),
    })),
  };
}

/** How many events are parked. */
// biome-ignore lint/suspicious/noExplicitAny: reads one table of its own, whatever the caller's Database type
export async function countParkedEvents(db: Kysely<any>): Promise<number> {
  const { rows } = await sql<{ parked: string }>`SELECT count(*) AS parked FROM parked_events`.execute(db);
  return Number(rows[0]?.parked ?? 0);
}
