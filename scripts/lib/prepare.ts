import type { Position } from '@licensestore/domain/events';
import { openDatabase } from '@licensestore/platform/db';
import { openEventStore } from '@licensestore/platform/eventstore';
import { createKeyVault } from '@licensestore/platform/key-vault';
import { migrateReadModel } from '../../projections/src/migrations/index.js';
import { migrateApi } from '../../services/api/src/migrations/index.js';
import { seedDemoStore } from '../../services/api/src/seed/index.js';
import { migrateWorkers } from '../../workers/src/migrations.js';

export interface PrepareOptions {
  databaseUrl: string;
  eventStoreConnectionString?: string | undefined;
  /** Seals the demo store's license keys: the roles must be given the same secret. */
  licenseKeySecret: string;
  /** Seed the demo catalogue (products and DEMO keys) into an empty store: config.SEED_DEMO. */
  seedDemo: boolean;
  log: (line: string) => void;
}

/**
 * Every schema the roles need (event store, read model, api and workers tables), then the demo store when asked and
 * the store is empty. Each step is idempotent and safe to run from several processes at once. Returns the position of the
 * last event the seed appended (null when it appended none), for the caller to wait on the projections.
 */
export async function prepareStore({
  databaseUrl,
  eventStoreConnectionString,
  licenseKeySecret,
  seedDemo,
  log,
}: PrepareOptions): Promise<{ lastPosition: Position | null }> {
  const store = await openEventStore({ databaseUrl, eventStoreConnectionString });
  const database = openDatabase(databaseUrl, { max: 2 });
  try {
    await migrateReadModel(database.db);
    await migrateApi(database.db);
    await migrateWorkers(database.db);
    if (!seedDemo) return { lastPosition: null };
    const { lastPosition } = await seedDemoStore({
      store,
      db: database.db,
      keyVault: createKeyVault(licenseKeySecret),
      log,
    });
    return { lastPosition };
  } finally {
    await Promise.allSettled([store.close(), database.close()]);
  }
}
