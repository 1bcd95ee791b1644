import { fileURLToPath } from 'node:url';
import type { EventStore } from '@licensestore/domain/events';
import type { PaypalSandbox } from '@licensestore/paypal-sandbox';
import {
  DEFAULT_CLIENT_ID,
  DEFAULT_CLIENT_SECRET,
  DEFAULT_WEBHOOK_ID,
} from '@licensestore/paypal-sandbox/credentials';
import type { Config } from '@licensestore/platform/config';
import {
  ConfigError,
  publicUrl,
  requireLicenseKeySecret,
  sellerDetails,
} from '@licensestore/platform/config';
import type { DatabaseHandle } from '@licensestore/platform/db';
import { createKeyVault } from '@licensestore/platform/key-vault';
import type { Logger } from '@licensestore/platform/logging';
import { createMailer, type Mailer } from '@licensestore/platform/mail';
import { createOrderAccess } from '@licensestore/platform/order-access';
import express, { type Express, Router } from 'express';
import type { Redis } from 'ioredis';
import type { ResendLimit } from './account/resend-throttle.js';
import { accountRoutes } from './account/routes.js';
import { auditRoutes } from './audit/routes.js';
import { auditVerifyRoutes } from './audit-verify/routes.js';
import { loadSession } from './auth/guards.js';
import { LoginThrottle } from './auth/login-throttle.js';
import { authRoutes } from './auth/routes.js';
import { SessionStore } from './auth/sessions.js';
import { backOfficeUserRoutes } from './auth/users-routes.js';
import { catalogueRoutes } from './catalogue/routes.js';
import { type CheckoutLimits, throttleCheckout } from './checkout/checkout-throttle.js';
import { checkoutRoutes, paymentsConfigRoutes } from './checkout/routes.js';
import { customerAuthRoutes } from './customer-auth/routes.js';
import { customerRoutes } from './customers/routes.js';
import { dashboardRoutes } from './dashboard/routes.js';
import { readiness } from './health/readiness.js';
import { compressAnswers } from './http/compression.js';
import { closeConnectionsWhenDraining } from './http/draining.js';
import { errorHandler, notFound } from './http/errors.js';
import { refuseUnstorablePaths } from './http/path-text.js';
import { giveRequestsContext } from './http/request-context.js';
import { logRequests } from './http/request-log.js';
import { reserveExpressFields } from './http/request-start.js';
import { refuseCrossSite } from './http/same-origin.js';
import { sendSecurityHeaders } from './http/security-headers.js';
import { publicFiles, webClient } from './http/static-files.js';
import { queuePrefixOf } from './jobs/back-office-queues.js';
import { licenseKeyImportRoutes, licenseKeyRoutes } from './license-keys/routes.js';
import { type LiveStreamLimits, liveRoutes } from './live/routes.js';
import { createMetrics } from './metrics/index.js';
import { objectRoutes } from './objects/routes.js';
import { createKeyCustody } from './orders/custody.js';
import { evidenceRoutes } from './orders/evidence/routes.js';
import { throttleKeyReads } from './orders/key-read-throttle.js';
import { orderRoutes } from './orders/routes.js';
import type { OrderStreamLimits } from './orders/stream-slots.js';
import { createPaypalClient } from './payments/client.js';
import { paymentsSetup, SANDBOX_MOUNT, type SandboxCredentials } from './payments/setup.js';
import { receiptRoutes } from './receipts/routes.js';
import { riskRoutes } from './risk/routes.js';
import { whatIfsInProjections } from './risk/what-if.js';
import { serverRenderedPages } from './storefront/server-rendered-pages.js';
import { listTestimonials, testimonialRoutes } from './testimonials/routes.js';

export interface AppDeps {
  database: DatabaseHandle;
  eventStore: EventStore;
  /** Session and throttle keys go here; give it a keyPrefix to share one Redis between instances or tests. */
  redis: Redis;
  config: Config;
  logger: Logger;
  /** Static files served at / (product images); defaults to services/api/public. */
  publicDir?: string;
  /** The built web client; defaults to web/dist in this repository, served only when it has been built. */
  webDist?: string;
  payments?: PaymentsDeps;
  /** Sends customers their sign-in links; defaults to the mail setup of the config (SMTP_URL or DATA_DIR/mail). */
  mailer?: Mailer;
  /** Aborted when the server begins to shut down: long-lived responses (order event streams) end. */
  closing?: AbortSignal;
  /** PayPal orders and captures per client address and window; CHECKOUT_LIMITS unless a test buys faster. */
  checkoutLimits?: CheckoutLimits;
  /** Bounds on open order event streams; the defaults suit production. */
  orderStreams?: Partial<OrderStreamLimits>;
  /** Bounds and rhythm of the back office's live streams; the defaults suit production. */
  liveStreams?: Partial<LiveStreamLimits>;
  /** Customers' resends of a delivery e-mail per order and per customer; RESEND_LIMIT unless a test says otherwise. */
  resendLimit?: ResendLimit;
}

/** PayPal wiring (ADR 007): real PayPal, or the emulator when the config says payments are simulated. */
export interface PaymentsDeps {
  /** The app's own URL once it listens: the embedded emulator, and its webhooks, are reached through it. */
  selfUrl?: () => string | undefined;
  /** Where REST calls go instead (a standalone emulator in tests); PAYPAL_API_BASE_URL does the same. */
  apiBaseUrl?: string;
  /**
   * The emulator this app mounts at /paypal-sandbox and pays through with its credentials (the role creates it when
   * payments are simulated and no other emulator is named); never mounted when payments are real.
   */
  sandbox?: Pick<PaypalSandbox, 'router' | 'clientId' | 'clientSecret' | 'webhookId'>;
  timeoutMs?: number;
  retries?: number;
  /** Projectors a capture's answer waits for; default ['orders']. */
  readModels?: string[];
  /** Connections for capture locks (held while PayPal captures); default the database pool. */
  captureLocks?: DatabaseHandle['pool'];
}

const PUBLIC_DIR = fileURLToPath(new URL('../public', import.meta.url));
const WEB_DIST = fileURLToPath(new URL('../../../web/dist', import.meta.url));
const JSON_LIMIT = '100kb';
/** A standalone emulator's (PAYPAL_API_BASE_URL in simulated mode, tests): it accepts its defaults. */
const SANDBOX_DEFAULTS: SandboxCredentials = {
  clientId: DEFAULT_CLIENT_ID,
  clientSecret: DEFAULT_CLIENT_SECRET,
  webhookId: DEFAULT_WEBHOOK_ID,
};

export function createApp(deps: AppDeps): Express {
  const { config, database, eventStore, redis, logger } = deps;
  if (!config.SESSION_SECRET) {
    throw new ConfigError(['SESSION_SECRET: required (npm start generates one into DATA_DIR)']);
  }
  const licenseKeySecret = requireLicenseKeySecret(config);
  const keyVault = createKeyVault(licenseKeySecret);
  const orderAccess = createOrderAccess(licenseKeySecret);
  const custody = createKeyCustody(licenseKeySecret, eventStore, redis, logger);
  const https = config.PUBLIC_URL?.startsWith('https:') ?? false;
  const sessions = new SessionStore(redis, config.SESSION_SECRET);
  const payments = paymentsSetup(config, deps.payments?.sandbox ?? SANDBOX_DEFAULTS, {
    selfUrl: deps.payments?.selfUrl,
    apiBaseUrl: deps.payments?.apiBaseUrl,
  });
  const paypal = createPaypalClient({
    baseUrl: payments.apiBaseUrl,
    clientId: payments.clientId,
    clientSecret: payments.clientSecret,
    timeoutMs: deps.payments?.timeoutMs,
    retries: deps.payments?.retries,
    logger,
  });

  const inventory = {
    database,
    eventStore,
    logger,
    keyVault,
    lowStockThreshold: config.LOW_STOCK_THRESHOLD,
  };
  const objects = objectRoutes(config);
  const api = Router();
  api.use(loadSession(sessions));
  // Before the JSON parser: an import of keys reads up to 1 MB, an image upload streams up to 10 MB, the rest 100 kB.
  api.use(licenseKeyImportRoutes(inventory));
  api.use(objects.api);
  api.use(express.json({ limit: JSON_LIMIT }));
  api.use(
    authRoutes({ db: database.db, sessions, throttle: new LoginThrottle(redis), secureCookies: https }),
  );
  api.use(backOfficeUserRoutes({ db: database.db, sessions }));
  api.use(
    customerAuthRoutes({
      redis,
      sessions,
      mailer:
        deps.mailer ??
        createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, dataDir: config.DATA_DIR }, logger),
      logger,
      publicUrl: publicUrl(config),
      secureCookies: https,
    }),
  );
  const catalogue = catalogueRoutes(deps);
  api.use(catalogue.writes);
  api.use(testimonialRoutes(database.db));
  api.use(throttleKeyReads(redis));
  api.use(
    orderRoutes({
      database,
      eventStore,
      logger,
      paypal,
      keyVault,
      orderAccess,
      custody,
      secureCookies: https,
      streamLimits: deps.orderStreams,
      closing: deps.closing,
    }),
  );
  api.use(
    evidenceRoutes({
      db: database.db,
      eventStore,
      keyVault,
      logger,
      signingKey: config.AUDIT_SIGNING_KEY,
    }),
  );
  api.use(receiptRoutes({ eventStore, orderAccess, seller: sellerDetails(config) }));
  api.use(
    accountRoutes({
      db: database.db,
      eventStore,
      custody,
      redis,
      keyVault,
      logger,
      resendLimit: deps.resendLimit,
    }),
  );
  api.use(licenseKeyRoutes({ ...inventory, custody }));
  api.use(
    riskRoutes({
      database,
      eventStore,
      paypal,
      logger,
      runWhatIf: whatIfsInProjections({ redis, redisUrl: config.REDIS_URL, logger, closing: deps.closing }),
    }),
  );
  api.use(customerRoutes(database.db));
  api.use(dashboardRoutes(database.db, config.LOW_STOCK_THRESHOLD));
  api.use(liveRoutes({ database, sessions, logger, limits: deps.liveStreams, closing: deps.closing }));
  api.use(
    auditRoutes({
      database,
      eventStore,
      keyVault,
      logger,
      lowStockThreshold: config.LOW_STOCK_THRESHOLD,
      signingKey: config.AUDIT_SIGNING_KEY,
    }),
  );
  api.use(
    auditVerifyRoutes({ db: database.db, redis, redisUrl: config.REDIS_URL, logger, closing: deps.closing }),
  );
  api.use(paymentsConfigRoutes(payments));
  api.use(notFound);

  const metrics = createMetrics({
    db: database.db,
    eventStore,
    redisUrl: config.REDIS_URL,
    // The workers beside this instance use its Redis key prefix for their queues too.
    queuePrefix: queuePrefixOf(redis),
    logger,
    token: config.METRICS_TOKEN,
  });
  deps.closing?.addEventListener('abort', () => void metrics.close(), { once: true });

  const webDist = deps.webDist ?? WEB_DIST;
  const web = webClient(webDist, (shell) =>
    serverRenderedPages({
      dist: webDist,
      shell,
      site: {
        origin: new URL(publicUrl(config)).origin,
        read: (path) =>
          path === '/api/testimonials'
            ? listTestimonials(database.db)
            : catalogue.read(path.replace(/^\/api/, '')),
      },
      keep: catalogue.keep,
      logger,
    }),
  );
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.TRUST_PROXY);
  sendSecurityHeaders(app, { https, scriptHashes: web?.scriptHashes ?? [] });
  reserveExpressFields(app);
  giveRequestsContext(app);
  logRequests(app, logger);
  metrics.observeRequests(app);
  closeConnectionsWhenDraining(app, deps.closing);
  app.use(refuseUnstorablePaths);
  app.use(refuseCrossSite({ publicUrl: publicUrl(config), local: config.PUBLIC_URL === undefined }));
  // What every storefront visit asks for, ahead of what it does not need (the session from Redis, body parsers,
  // checkout routes, static file lookups): under load these answer from memory.
  app.use('/api', catalogue.reads);
  if (web) app.use(web.home);
  // Everything after this is compressed on the fly; what is above sends bytes it keeps compressed.
  app.use(compressAnswers());
  if (payments.embeddedSandbox && deps.payments?.sandbox)
    app.use(SANDBOX_MOUNT, deps.payments.sandbox.router);
  app.use(throttleCheckout(redis, deps.checkoutLimits));
  app.use(
    checkoutRoutes({
      database,
      eventStore,
      redis,
      logger,
      paypal,
      webhookId: payments.webhookId,
      orderAccess,
      secureCookies: https,
      readModels: deps.payments?.readModels,
      captureLocks: deps.payments?.captureLocks,
      clientHash: custody.clientHash,
    }),
  );
  app.use('/api', api);
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  // Liveness above (the process answers), readiness here: a load balancer sends traffic only to an instance whose
  // dependencies answer and whose read models are current.
  app.get('/readyz', async (_req, res) => {
    const { ready, checks } = await readiness({ db: database.db, redis, eventStore });
    res
      .status(ready ? 200 : 503)
      .set('Cache-Control', 'no-store')
      .json({ status: ready ? 'ready' : 'not ready', checks });
  });
  app.use(metrics.router);
  app.use(objects.files);
  app.use(publicFiles(deps.publicDir ?? PUBLIC_DIR));
  if (web) app.use(web.router);
  app.use(notFound);
  app.use(errorHandler(logger));
  return app;
}
