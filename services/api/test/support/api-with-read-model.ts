import { randomUUID } from 'node:crypto';
import type { EventStore } from '@licensestore/domain/events';
import { type DatabaseHandle, openDatabase } from '@licensestore/platform/db';
import { openEventStore } from '@licensestore/platform/eventstore';
import { silentLogger, startProjections } from '../../../../projections/src/index.js';
import { createTestDatabase, testRedisUrl } from '../../../../test/support/database.js';
import { addKeys } from '../../../../workers/src/testing/store.js';
import { startTestApi, type TestApi, type TestApiOptions } from './api.js';
import { type SeedProduct, seedProduct } from './checkout.js';

export interface ApiWithReadModel {
  api: TestApi;
  databaseUrl: string;
  /** The read model's database and the event log, for a test to look at what the api did. */
  database: DatabaseHandle;
  eventStore: EventStore;
  /** A product in the catalogue with `keys` license keys in stock, sealed as this api seals them. */
  productWithKeys: (keys: number, fields?: SeedProduct) => Promise<string>;
  /** Runs `during` with the projections stopped, as when they lag behind the log, and starts them again after it. */
  withProjectionsStopped: <T>(during: () => Promise<T>) => Promise<T>;
  /** Stops everything, last started first. */
  stop: () => Promise<void>;
}

/**
 * The api on a fresh database (or the one given) with the projections running, as a test of the api needs it; the
 * projections take the back office's jobs (what-ifs, verifications) the api queues.
 */
export async function startApiWithReadModel(options: TestApiOptions = {}): Promise<ApiWithReadModel> {
  const databaseUrl = options.databaseUrl ?? (await createTestDatabase());
  const stops: Array<() => Promise<unknown>> = [];
  const stop = async () => {
    for (const step of stops.splice(0).reverse()) await step();
  };
  const redisKeyPrefix = options.redisKeyPrefix ?? `test-${randomUUID()}:`;
  const projections = () =>
    startProjections({
      databaseUrl,
      logger: silentLogger,
      backOfficeJobs: { redisUrl: testRedisUrl(), prefix: `${redisKeyPrefix}bull` },
    });
  try {
    let stopProjections = await projections();
    stops.push(() => stopProjections());
    const api = await startTestApi({ ...options, databaseUrl, redisKeyPrefix });
    stops.push(api.stop);
    const database = openDatabase(databaseUrl);
    stops.push(() => database.close());
    const eventStore = await openEventStore({ databaseUrl });
    stops.push(() => eventStore.close());
    const productWithKeys = async (keys: number, fields: SeedProduct = {}) => {
      const productId = await seedProduct(eventStore, database, fields);
      await addKeys(eventStore, api.keyVault, productId, keys);
      return productId;
    };
    const withProjectionsStopped = async <T>(during: () => Promise<T>) => {
      await stopProjections();
      try {
        return await during();
      } finally {
        stopProjections = await projections();
      }
    };
    return { api, databaseUrl, database, eventStore, productWithKeys, withProjectionsStopped, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
