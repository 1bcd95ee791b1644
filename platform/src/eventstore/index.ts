import { type EventStore, eventVersions, versionedEventStore } from '@licensestore/domain/events';
import { createPool } from '../db/index.js';
import { EventStoreDbEventStore } from './esdb.js';
import { PostgresEventStore } from './postgres.js';
import { migrateEventStore } from './postgres-schema.js';

export { AppendTooLargeError, MAX_APPEND_BYTES } from './append-size.js';
export { EventStoreDbEventStore } from './esdb.js';
export { decodePosition, encodePosition } from './position.js';
export {
  appendManyWith,
  appendWith,
  notifyAppended,
  PostgresEventStore,
  type StreamAppend,
} from './postgres.js';
export {
  isEmptyPostgresLog,
  type RestoredEvent,
  RowDigest,
  rowReadBack,
  writeRestoredEvents,
} from './postgres-restore.js';
export { migrateEventStore } from './postgres-schema.js';

export interface EventStoreOptions {
  databaseUrl: string;
  eventStoreConnectionString?: string | undefined;
}

/**
 * EventStoreDB when a connection string is given, otherwise the Postgres event store in the read-model database;
 * either way versioned (ADR 014): events are written at their type's current version and read in its shape.
 */
export async function openEventStore(options: EventStoreOptions): Promise<EventStore> {
  return versionedEventStore(await openAdapter(options), eventVersions);
}

/**
 * The adapter itself, without upcasting: events read as they are stored (their recorded metadata.schemaVersion and
 * data shape), and appends keep a given schemaVersion. For copying the log (backup), never for deciding on it.
 */
export const openBareEventStore = (options: EventStoreOptions): Promise<EventStore> => openAdapter(options);

async function openAdapter(options: EventStoreOptions): Promise<EventStore> {
  if (options.eventStoreConnectionString)
    return new EventStoreDbEventStore(options.eventStoreConnectionString);
  const pool = createPool(options.databaseUrl);
  await migrateEventStore(pool);
  return new PostgresEventStore(pool);
}
