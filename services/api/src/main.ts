import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '@licensestore/paypal-sandbox/credentials';
import {
  type Config,
  ConfigError,
  loadConfig,
  requireUrl,
  simulatedPaymentsWarning,
} from '@licensestore/platform/config';
import { openDatabase } from '@licensestore/platform/db';
import { openEventStore } from '@licensestore/platform/eventstore';
import { jsonLogger, type Logger } from '@licensestore/platform/logging';
import { createMailer } from '@licensestore/platform/mail';
import { Redis } from 'ioredis';
import { type AppDeps, createApp, type PaymentsDeps } from './app.js';
import { ensureFirstAdmin } from './auth/admins.js';
import { migrateApi } from './migrations/index.js';
import { mountsSandbox } from './payments/setup.js';

/** Captures of different PayPal orders this instance runs at once (more wait for a connection). */
const CAPTURE_LOCK_CONNECTIONS = 50;
/** How long a stop waits for requests in flight: under the 20 s the supervisor (and most orchestrators) allow. */
const DRAIN_MS = 15_000;
/**
 * Each bounds what a client makes the server wait for, never what the server sends: a request's headers must arrive
 * within HEADERS_TIMEOUT_MS of its first byte and its whole body (a 10 MB image upload at a slow 100 kB/s) within
 * REQUEST_TIMEOUT_MS, while a response may run as long as it likes (event streams run for hours once their GET has
 * arrived). An idle keep-alive connection is kept KEEP_ALIVE_MS: longer than a load balancer keeps its idle ones
 * (60 s for most), so the balancer never sends a request down a connection this server is closing.
 */
const HEADERS_TIMEOUT_MS = 15_000;
const REQUEST_TIMEOUT_MS = 120_000;
const KEEP_ALIVE_MS = 65_000;
/** How often the timeouts above are checked (Node's default, 30 s, would let a slow client hold on twice as long). */
const TIMEOUT_CHECK_MS = 5_000;

export interface StartApiOptions {
  /** DATABASE_URL, REDIS_URL and SESSION_SECRET must be filled in (npm start does so for embedded services). */
  config: Config;
  /** Defaults to config.PORT; 0 picks a free port. */
  port?: number;
  /** Defaults to every interface. */
  host?: string;
  logger?: Logger;
  /** Prefix for every Redis key this instance writes, e.g. to share a Redis between test files. */
  redisKeyPrefix?: string;
  /** PayPal overrides, e.g. `apiBaseUrl` of a standalone emulator; the embedded one is mounted otherwise. */
  payments?: Pick<PaymentsDeps, 'apiBaseUrl' | 'timeoutMs' | 'retries' | 'readModels'>;
  /** How long stop() lets requests in flight finish before cutting their connections; default 15 s. */
  drainMs?: number;
  /** PayPal orders and captures per client address (CHECKOUT_LIMITS by default): only tests, buying faster, set it. */
  checkoutLimits?: AppDeps['checkoutLimits'];
  /** Bounds on open order event streams; the defaults suit production. */
  orderStreams?: AppDeps['orderStreams'];
  /** Bounds and rhythm of the back office's live streams; the defaults suit production. */
  liveStreams?: AppDeps['liveStreams'];
}

export interface RunningApi {
  url: string;
  stop: () => Promise<void>;
}

/** The `api` role: migrates its own tables, seeds the first admin, and serves HTTP until stopped. */
export async function startApi(options: StartApiOptions): Promise<RunningApi> {
  const { config } = options;
  const logger = options.logger ?? jsonLogger({ role: 'api' }, config.LOG_LEVEL);
  const warning = simulatedPaymentsWarning(config);
  if (warning) logger.warn({}, warning);
  const databaseUrl = requireUrl(config, 'DATABASE_URL');
  const redisUrl = requireUrl(config, 'REDIS_URL');

  const cleanup: Array<() => Promise<unknown>> = [];
  const stop = async () => {
    for (const step of cleanup.splice(0).reverse()) {
      await step().catch((error: unknown) =>
        logger.error({ err: error }, 'stopping: a resource did not close'),
      );
    }
  };
  try {
    const database = openDatabase(databaseUrl);
    cleanup.push(() => database.close());
    // Each capture in progress holds one (its advisory lock's session): kept apart so they never starve queries.
    const captureLocks = openDatabase(databaseUrl, { max: CAPTURE_LOCK_CONNECTIONS });
    cleanup.push(() => captureLocks.close());
    await migrateApi(database.db);
    const eventStore = await openEventStore({
      databaseUrl,
      eventStoreConnectionString: config.EVENTSTORE_CONNECTION_STRING,
    });
    cleanup.push(() => eventStore.close());
    const redis = new Redis(redisUrl, { keyPrefix: options.redisKeyPrefix });
    cleanup.push(() => redis.quit());
    await redis.ping();
    await ensureFirstAdmin(
      database.db,
      { username: config.ADMIN_USERNAME, password: config.ADMIN_PASSWORD },
      logger,
    );

    // The embedded emulator and its webhooks are reached through this server's own URL, known once it listens.
    let selfUrl: string | undefined;
    const embedded = mountsSandbox(config, options.payments?.apiBaseUrl);
    // Loaded only when mounted: a store taking real payments never runs the emulator's code.
    const sandbox = embedded
      ? (await import('@licensestore/paypal-sandbox')).createPaypalSandbox({
          clientId: DEFAULT_CLIENT_ID,
          clientSecret: embeddedSandboxSecret(config),
          webhookUrl: () => (selfUrl ? `${selfUrl}/paypal/webhook` : undefined),
          webhookId: config.PAYPAL_WEBHOOK_ID,
          logger,
        })
      : undefined;
    if (embedded && !warning) {
      logger.info(
        {},
        'payments are simulated by the PayPal emulator at /paypal-sandbox (no PayPal credentials set)',
      );
    }

    const mailer = createMailer(
      { smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, dataDir: config.DATA_DIR },
      logger,
    );
    cleanup.push(async () => mailer.close());

    const closing = new AbortController();
    const app = createApp({
      mailer,
      closing: closing.signal,
      orderStreams: options.orderStreams,
      liveStreams: options.liveStreams,
      database,
      eventStore,
      redis,
      config,
      logger,
      webDist: config.WEB_DIST,
      checkoutLimits: options.checkoutLimits,
      payments: {
        ...options.payments,
        selfUrl: () => selfUrl,
        sandbox,
        captureLocks: captureLocks.pool,
      },
    });
    const server = createServer(
      {
        headersTimeout: HEADERS_TIMEOUT_MS,
        requestTimeout: REQUEST_TIMEOUT_MS,
        keepAliveTimeout: KEEP_ALIVE_MS,
        connectionsCheckingInterval: TIMEOUT_CHECK_MS,
      },
      app,
    );
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      // No host: every interface, IPv6 and IPv4 where the machine has them.
      server.listen({ port: options.port ?? config.PORT, host: options.host }, () => {
        server.off('error', reject);
        resolve();
      });
    });
    // In-flight requests finish (each answer closes its connection: see the app's draining); idle keep-alive
    // connections are closed at once. A request still running after DRAIN_MS is cut off, so a stop never hangs.
    cleanup.push(
      () =>
        new Promise<void>((resolve) => {
          const cutOff = setTimeout(() => server.closeAllConnections(), options.drainMs ?? DRAIN_MS);
          server.close(() => {
            clearTimeout(cutOff);
            resolve();
          });
        }),
    );
    // Runs before the server closes: open event streams would otherwise keep it open for good.
    cleanup.push(async () => closing.abort());
    // Runs before the server closes: no webhook delivery (or retry) may hold the close up.
    if (sandbox) cleanup.push(() => sandbox.close());
    const { port } = server.address() as AddressInfo;
    const host =
      !options.host || options.host === '::' || options.host === '0.0.0.0' ? '127.0.0.1' : options.host;
    const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    selfUrl = url;
    logger.info({ url, publicUrl: config.PUBLIC_URL }, 'api listening');
    return { url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * In development and test the embedded emulator takes its documented secret, so tests and scripts can drive its
 * control routes; in production (PAYPAL_SIMULATED=1) a secret of this process's own, so that nobody but this app
 * can call them (mark orders refunded, list PayPal order ids).
 */
const embeddedSandboxSecret = (config: Config) =>
  config.NODE_ENV === 'production' ? randomBytes(32).toString('base64url') : DEFAULT_CLIENT_SECRET;

async function main() {
  const config = loadConfig();
  const logger = jsonLogger({ role: 'api' }, config.LOG_LEVEL);
  try {
    const api = await startApi({ config, logger });
    const shutdown = (signal: string) => {
      logger.info({ signal }, 'stopping');
      api.stop().then(
        () => process.exit(0),
        (error) => {
          logger.error({ err: error }, 'stop failed');
          process.exit(1);
        },
      );
    };
    process.once('SIGINT', shutdown);
    process.once('SIGTERM', shutdown);
  } catch (error) {
    if (error instanceof ConfigError) console.error(error.message);
    else logger.error({ err: error }, 'api failed to start');
    process.exit(1);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // An invalid configuration (ConfigError) prints the list of bad keys, not a stack.
  await main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
