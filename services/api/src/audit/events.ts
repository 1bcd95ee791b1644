import type { AuditEventView } from '@licensestore/domain/audit';
import type { Actor } from '@licensestore/domain/events';
import type { Database } from '@licensestore/platform/db';
import type { Kysely } from 'kysely';
import { isUuid } from '../http/ids.js';

/** A row of the `audit-log` read model, as queried. */
export interface AuditLogRow {
  position: string;
  event_id: string;
  stream: string;
  revision: string;
  type: string;
  recorded_at: Date;
  actor_type: string;
  actor_id: string;
  correlation_id: string;
  causation_id: string;
  data: unknown;
}

/** A logged event as people read it (keys were withheld when the row was written). */
export const auditEventOf = (row: AuditLogRow): AuditEventView => ({
  id: row.event_id,
  position: row.position,
  stream: row.stream,
  revision: Number(row.revision),
  type: row.type,
  recordedAt: row.recorded_at.toISOString(),
  actor: { type: row.actor_type as Actor['type'], id: row.actor_id },
  correlationId: row.correlation_id,
  causationId: row.causation_id,
  data: row.data,
});

/**
 * The events with their acting admins named: events carry an admin's id, which tells a person nothing. An admin
 * deleted since keeps only the id.
 */
export async function withAdminNames<E extends { actor: Actor }>(
  db: Kysely<Database>,
  events: E[],
): Promise<E[]> {
  const ids = [
    ...new Set(events.filter((event) => event.actor.type === 'admin').map((event) => event.actor.id)),
  ].filter(isUuid);
  if (ids.length === 0) return events;
  const rows = await db.selectFrom('admin_users').select(['id', 'username']).where('id', 'in', ids).execute();
  const names = new Map(rows.map((row) => [row.id, row.username]));
  return events.map((event) => ({ ...event, actor: { ...event.actor, name: names.get(event.actor.id) } }));
}
