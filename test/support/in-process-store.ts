import { randomUUID } from 'node:crypto';
import { startPaypalSandbox } from '@licensestore/paypal-sandbox';
import { silentLogger } from '@licensestore/platform/logging';
import { onTestFinished } from 'vitest';
import { startApiWithReadModel } from '../../services/api/test/support/api-with-read-model.js';
import { startWorkers } from '../../workers/src/main.js';
import { testSideEffects } from '../../workers/src/testing/fixtures.js';
import { testRedisUrl } from './database.js';
import { startFlakyHttpProxy } from './flaky-http-proxy.js';
import { startTestSmtpServer } from './smtp-server.js';

export interface InProcessStoreOptions {
  /** Where the workers send mail; unset: .eml files in a fresh directory. */
  smtpUrl?: string;
  /** The api's PayPal client: how long it waits for an answer, and how often it tries again. */
  paypalTimeoutMs?: number;
  paypalRetries?: number;
  /** False: the emulator sends no webhooks (as when PayPal's never arrive). */
  webhooks?: boolean;
}

/**
 * The whole store in this process, every role on one fresh database and Redis prefix: projections, workers, the
 * api, and a standalone PayPal emulator that the api reaches through a proxy the test can make slow or lossy (the
 * emulator's webhooks reach the api directly). For fault tests that change a dependency, not a process.
 */
export async function startInProcessStore(options: InProcessStoreOptions = {}) {
  const stops: Array<() => Promise<unknown>> = [];
  const stop = async () => {
    for (const step of stops.splice(0).reverse()) await step();
  };
  try {
    let apiUrl: string | undefined;
    const emulator = await startPaypalSandbox({
      host: '127.0.0.1',
      webhookUrl: () => (apiUrl && options.webhooks !== false ? `${apiUrl}/paypal/webhook` : undefined),
    });
    stops.push(() => emulator.stop());
    const paypal = await startFlakyHttpProxy(emulator.url);
    stops.push(() => paypal.close());
    const store = await startApiWithReadModel({
      payments: {
        apiBaseUrl: `${paypal.url}/paypal-sandbox`,
        timeoutMs: options.paypalTimeoutMs,
        retries: options.paypalRetries,
      },
    });
    stops.push(store.stop);
    apiUrl = store.api.url;
    const sideEffects = testSideEffects({ keyVault: store.api.keyVault, orderAccess: store.api.orderAccess });
    const workers = await startWorkers({
      databaseUrl: store.databaseUrl,
      redisUrl: testRedisUrl(),
      queuePrefix: `test-${randomUUID()}`,
      logger: silentLogger,
      sideEffects: { ...sideEffects, mail: { ...sideEffects.mail, smtpUrl: options.smtpUrl } },
    });
    stops.push(() => workers.stop());
    return {
      ...store,
      emulator,
      /** The api's way to PayPal. */
      paypal,
      /** PayPal orders the emulator holds as captured. */
      capturedAtPaypal: () =>
        [...emulator.sandbox.state.orders.values()]
          .filter((order) => order.status === 'COMPLETED')
          .map((order) => order.id),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

export type InProcessStore = Awaited<ReturnType<typeof startInProcessStore>>;

/**
 * An in-process store whose mail goes to an SMTP server of its own, taking mail from the start unless
 * `mailServerOpen` is false; both are stopped when the test finishes.
 */
export async function startStoreWithMailServer(
  options: Omit<InProcessStoreOptions, 'smtpUrl'> = {},
  { mailServerOpen = true } = {},
) {
  const smtp = await startTestSmtpServer();
  onTestFinished(() => smtp.close());
  if (mailServerOpen) await smtp.open();
  const store = await startInProcessStore({ ...options, smtpUrl: smtp.url });
  onTestFinished(() => store.stop());
  return { store, smtp };
}
