import type { EventStore, Position } from '@licensestore/domain/events';
import type { Database } from '@licensestore/platform/db';
import { allProjectorDescriptors } from '@licensestore/platform/readmodel';
import type { Kysely } from 'kysely';

export interface ProjectorLag {
  name: string;
  /** False before the projector's first start: it has no checkpoint, so everything in the log is behind it. */
  started: boolean;
  /** The version its tables were built by, and the code's: they differ while a rebuild is due or running. */
  storedVersion: number | null;
  codeVersion: number;
  /** Events in the log after its checkpoint, counted up to `countUpTo` (more reads as that). */
  eventsBehind: number;
  /** How long the oldest event it has not applied has been in the log; 0 when it has applied everything. */
  secondsBehind: number;
}

/**
 * Where each projector stands against the head of the log, read through the event-store port so it is the same for
 * EventStoreDB: one read per distinct checkpoint (all of them share one when caught up, and that read is empty).
 */
export async function projectionLag(
  db: Kysely<Database>,
  eventStore: EventStore,
  options: { now: number; countUpTo: number },
): Promise<ProjectorLag[]> {
  const rows = await db
    .selectFrom('projection_checkpoints')
    .select(['name', 'position', 'version'])
    .execute();
  const checkpoints = new Map(rows.map((row) => [row.name, row]));
  const unapplied = new Map<Position | null, Promise<{ events: number; oldest: Date | undefined }>>();
  const after = (position: Position | null) => {
    let read = unapplied.get(position);
    if (!read) {
      read = eventStore
        .readAll(position, options.countUpTo)
        .then((events) => ({ events: events.length, oldest: events[0]?.createdAt }));
      unapplied.set(position, read);
    }
    return read;
  };
  return Promise.all(
    allProjectorDescriptors.map(async (projector) => {
      const checkpoint = checkpoints.get(projector.name);
      const { events, oldest } = await after(checkpoint?.position ?? null);
      return {
        name: projector.name,
        started: checkpoint !== undefined,
        storedVersion: checkpoint?.version ?? null,
        codeVersion: projector.version,
        eventsBehind: events,
        secondsBehind: oldest ? Math.max(0, (options.now - oldest.getTime()) / 1000) : 0,
      };
    }),
  );
}
