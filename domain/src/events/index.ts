// The event store's port and what every event shares: the envelope, the data schemas, the upcasting of older
// versions. The adapters behind the port (Postgres, EventStoreDB) are Node-only and live in @licensestore/platform.
export { parseEventData } from './event-data.js';
export { eventVersions } from './event-versions.js';
export * from './port.js';
export { EventVersions, FutureEventVersionError, type Upcaster, versionedEventStore } from './upcasting.js';
