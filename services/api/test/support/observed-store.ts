import { recordingLogger } from '@licensestore/platform/logging';
import { testRedisUrl } from '../../../../test/support/database.js';
import { startWorkers } from '../../../../workers/src/main.js';
import { testSideEffects } from '../../../../workers/src/testing/fixtures.js';
import type { TestApiOptions } from './api.js';
import { startApiWithReadModel } from './api-with-read-model.js';

/**
 * The api (with its embedded PayPal emulator), the projections and the workers on one fresh database (or the one
 * given), the workers' queues under the api's Redis prefix (so its /metrics sees them), and the api's and workers' log
 * lines recorded.
 */
export async function startObservedStore(
  options: Pick<TestApiOptions, 'env' | 'orderStreams' | 'databaseUrl'> = {},
) {
  const store = await startApiWithReadModel(options);
  try {
    const workersLog = recordingLogger();
    const sideEffects = testSideEffects({ keyVault: store.api.keyVault, orderAccess: store.api.orderAccess });
    const workers = await startWorkers({
      databaseUrl: store.databaseUrl,
      redisUrl: testRedisUrl(),
      queuePrefix: `${store.api.redisKeyPrefix}bull`,
      logger: workersLog,
      sideEffects,
    });
    return {
      ...store,
      workersLog,
      /** Where the workers write their e-mails (`<mailDir>/mail/*.eml`). */
      mailDir: sideEffects.mail.dataDir,
      /** Stops the workers alone: what they would do next is left undone (the api and projections go on). */
      stopWorkers: () => workers.stop(),
      stop: async () => {
        await workers.stop();
        await store.stop();
      },
    };
  } catch (error) {
    await store.stop();
    throw error;
  }
}

export type ObservedStore = Awaited<ReturnType<typeof startObservedStore>>;
