import pg from 'pg';
import { EventStoreDbEventStore } from './esdb.js';
import type { EventStore } from './port.js';
import { PostgresEventStore } from './postgres.js';
import { migrateEventStore } from './postgres-schema.js';

export { EventStoreDbEventStore } from './esdb.js';
export * from './port.js';
export { decodePosition, encodePosition } from './position.js';
export { appendWith, notifyAppended, PostgresEventStore } from './postgres.js';
export { migrateEventStore } from './postgres-schema.js';

/** EventStoreDB when a connection string is given, otherwise the Postgres event store in the read-model database. */
export async function openEventStore(options: {
  databaseUrl: string;
  eventStoreConnectionString?: string | undefined;
}): Promise<EventStore> {
  if (options.eventStoreConnectionString)
    return new EventStoreDbEventStore(options.eventStoreConnectionString);
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
  await migrateEventStore(pool);
  return new PostgresEventStore(pool);
}
