// The preparation `npm start` and `npm run start:cluster` share, and the two ways of running the roles after it.
//
// single:  projections, workers, api (on PORT): docs/decisions/003-local-stack.md
// cluster: the PayPal emulator, two projections, two workers, two api instances on free loopback ports, and HAProxy
//          on PORT in front of them: docs/decisions/017-scale-out.md, 042-haproxy-in-front-of-the-api.md
import { chmod, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Config, STACK_ENV_FILE } from '@licensestore/platform/config';
import { openDatabase } from '@licensestore/platform/db';
import { waitForProjections } from '@licensestore/platform/readmodel';
import { freePort } from '../stack/free-port.js';
import { STORE_DATABASE } from '../stack/store-database.js';
import { type Balancer, HaproxyNotInstalledError, haproxyInstalled, startBalancer } from './haproxy.js';
import { lockDataDir } from './lock.js';
import { prepareStore } from './prepare.js';
import { LABEL_WIDTH } from './roles.js';
import { resolveLicenseKeySecret, resolveSessionSecret } from './secrets.js';
import { spawnServicesHost } from './services.js';
import type { RoleInstance, Stack } from './stack.js';
import { buildWebIfStale } from './web-build.js';

export type Topology = 'single' | 'cluster';

const READY_TIMEOUT_MS = 180_000;
/** Each role of a cluster runs this many times. */
const CLUSTER_SIZE = 2;
const SANDBOX_MOUNT = '/paypal-sandbox';

export interface LaunchOptions {
  root: string;
  config: Config;
  /** Absolute. */
  dataDir: string;
  /** What every role inherits, before the supervisor fills in URLs and secrets. */
  env: NodeJS.ProcessEnv;
  topology: Topology;
}

export interface Launched {
  /** Where the store is served (HAProxy in a cluster). */
  url: string;
  databaseUrl: string;
  redisUrl: string;
  /** Each api instance's own URL, by label. */
  apiUrls: ReadonlyMap<string, string>;
  balancer: Balancer | undefined;
}

/**
 * Resolves the services (starting embedded Postgres and redis-server for whatever is not configured), the secrets,
 * every migration and the demo seed, then starts the roles the topology names under `stack`'s supervision.
 * Resolves once the store serves on PORT and the demo catalogue is projected; every process it started is in `stack`.
 */
export async function launchStore(stack: Stack, options: LaunchOptions): Promise<Launched> {
  const { config, dataDir, root } = options;
  // Said before anything starts, not after the migrations.
  if (options.topology === 'cluster' && !haproxyInstalled()) throw new HaproxyNotInstalledError();
  stack.release = (await lockDataDir(dataDir)).release;
  stack.log(`data in ${dataDir}`);

  const webBuild = buildWebIfStale(root, stack.log, (line) =>
    stack.out(`${'web build'.padEnd(LABEL_WIDTH)} | ${line}`),
  );
  const needPostgres = !config.DATABASE_URL;
  const needRedis = !config.REDIS_URL;
  let local: { databaseUrl?: string | undefined; redisUrl?: string | undefined } = {};
  if (needPostgres || needRedis) {
    const what = [needPostgres && 'embedded Postgres', needRedis && 'redis-server']
      .filter(Boolean)
      .join(' and ');
    stack.log(`starting ${what} (logs in ${join(dataDir, 'logs')})`);
    const services = spawnServicesHost(root, {
      dataDir,
      postgres: needPostgres,
      database: STORE_DATABASE,
      redis: needRedis,
    });
    stack.services = services;
    void services.exited.then(() => stack.fail('the local Postgres/Redis host exited'));
    local = await services.ready;
  }
  stack.assertRunning();
  const databaseUrl = config.DATABASE_URL ?? local.databaseUrl;
  const redisUrl = config.REDIS_URL ?? local.redisUrl;
  if (!databaseUrl || !redisUrl) throw new Error('the local services did not report their URLs');
  const sessionSecret = await resolveSessionSecret(dataDir, config.SESSION_SECRET);
  const licenseKeySecret = await resolveLicenseKeySecret(dataDir, config.LICENSE_KEY_SECRET);
  // For tools run beside the stack (`npm run rebuild -- all` reads it when DATABASE_URL is unset); removed on stop.
  const stackEnv = join(dataDir, STACK_ENV_FILE);
  // The URLs carry the servers' passwords: the file is the owner's alone (also one left behind by a killed start).
  await writeFile(stackEnv, `DATABASE_URL=${databaseUrl}\nREDIS_URL=${redisUrl}\n`, { mode: 0o600 });
  await chmod(stackEnv, 0o600);
  stack.cleanup.push(() => rm(stackEnv, { force: true }));

  stack.log(`database ${redact(databaseUrl)}, redis ${redact(redisUrl)} (URLs in ${stackEnv})`);
  stack.log(config.EVENTSTORE_CONNECTION_STRING ? 'event store: EventStoreDB' : 'event store: Postgres');
  const { lastPosition } = await prepareStore({
    databaseUrl,
    eventStoreConnectionString: config.EVENTSTORE_CONNECTION_STRING,
    licenseKeySecret,
    seedDemo: config.SEED_DEMO,
    log: stack.log,
  });
  await webBuild;
  stack.assertRunning();

  const env: NodeJS.ProcessEnv = {
    ...options.env,
    NODE_ENV: config.NODE_ENV,
    PORT: String(config.PORT),
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    SESSION_SECRET: sessionSecret,
    LICENSE_KEY_SECRET: licenseKeySecret,
  };
  const ready = new AbortController();
  const served =
    options.topology === 'single'
      ? await runSingle(stack, config, env, ready.signal)
      : await runCluster(stack, options, env, ready.signal);
  if (lastPosition) await waitForSeedProjected(stack, databaseUrl, lastPosition);
  stack.assertRunning();
  // From here on a role that exits is restarted instead of failing the start.
  ready.abort();
  return { ...served, databaseUrl, redisUrl };
}

type Served = Pick<Launched, 'url' | 'apiUrls' | 'balancer'>;

const START_ORDER = ['projections', 'workers', 'api'] as const;

async function runSingle(stack: Stack, config: Config, env: NodeJS.ProcessEnv, starting: AbortSignal) {
  for (const role of START_ORDER) stack.supervise({ label: role, role, env }, starting);
  const url = `http://127.0.0.1:${config.PORT}`;
  await waitUntil(stack, `the api on port ${config.PORT}`, () => answers(`${url}/healthz`));
  return { url, apiUrls: new Map([['api', url]]), balancer: undefined } satisfies Served;
}

async function runCluster(
  stack: Stack,
  { root, config, dataDir }: LaunchOptions,
  env: NodeJS.ProcessEnv,
  starting: AbortSignal,
): Promise<Served> {
  // The emulator keeps its orders in memory: one process for the whole cluster, reached through the balancer
  // at /paypal-sandbox so that the browser loads its SDK from the store's own origin (the CSP allows only 'self').
  const emulated = config.PAYPAL_SIMULATED && !config.PAYPAL_API_BASE_URL;
  const sandboxUrl = emulated ? `http://127.0.0.1:${await freePort()}` : undefined;
  const roleEnv: NodeJS.ProcessEnv = {
    ...env,
    // Client addresses come from the balancer's X-Forwarded-For; it connects over loopback.
    TRUST_PROXY: env.TRUST_PROXY || 'loopback',
    ...(emulated && { PAYPAL_API_BASE_URL: `http://localhost:${config.PORT}${SANDBOX_MOUNT}` }),
  };
  const instances: RoleInstance[] = [];
  if (sandboxUrl) {
    instances.push({
      label: 'paypal-sandbox',
      role: 'paypal-sandbox',
      env: {
        ...roleEnv,
        PORT: new URL(sandboxUrl).port,
        HOST: '127.0.0.1',
        PAYPAL_SANDBOX_WEBHOOK_URL: `http://127.0.0.1:${config.PORT}/paypal/webhook`,
      },
    });
  }
  const apiUrls = new Map<string, string>();
  for (const role of START_ORDER) {
    for (let n = 1; n <= CLUSTER_SIZE; n++) {
      const label = `${role}-${n}`;
      let instanceEnv = roleEnv;
      if (role === 'api') {
        const port = await freePort();
        apiUrls.set(label, `http://127.0.0.1:${port}`);
        instanceEnv = { ...roleEnv, PORT: String(port) };
      }
      instances.push({ label, role, env: instanceEnv });
    }
  }
  for (const instance of instances) stack.supervise(instance, starting);

  const balancer = await startBalancer({
    root,
    port: config.PORT,
    apis: apiUrls,
    paypalSandbox: sandboxUrl,
    runDir: dataDir,
    log: (line) => stack.out(`${'balancer'.padEnd(LABEL_WIDTH)} | ${line}`),
  });
  stack.frontDoor = balancer;
  void balancer.exited.then((code) => stack.fail(`haproxy exited (${code})`));
  const expected = apiUrls.size + (sandboxUrl ? 1 : 0);
  await waitUntil(
    stack,
    'every api instance to pass /readyz',
    async () => (await balancer.inRotation()).length === expected,
  );
  for (const instance of instances) {
    const pid = stack.roles.get(instance.label)?.child.pid;
    const where =
      apiUrls.get(instance.label) ?? (instance.role === 'paypal-sandbox' ? sandboxUrl : undefined);
    stack.log(`${instance.label.padEnd(LABEL_WIDTH)} pid ${pid}${where ? ` on ${where}` : ''}`);
  }
  return { url: balancer.url, apiUrls, balancer };
}

const answers = async (url: string) => {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false; // not listening yet
  }
};

/** Looks every 100 ms while the stack runs, for at most READY_TIMEOUT_MS. */
async function waitUntil(stack: Stack, what: string, condition: () => Promise<boolean>) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    stack.assertRunning();
    if (await condition()) return;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${READY_TIMEOUT_MS / 1000}s waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

/** The storefront should show the demo catalogue the moment the URL is printed: wait for the products projector. */
async function waitForSeedProjected(stack: Stack, databaseUrl: string, position: string) {
  const database = openDatabase(databaseUrl, { max: 2 });
  try {
    const caughtUp = await waitForProjections(database.pool, position, {
      projectors: ['products'],
      timeoutMs: READY_TIMEOUT_MS,
    });
    if (!caughtUp) stack.log('the products projection has not caught up with the demo catalogue yet');
  } finally {
    // Only the raw pool was used; kysely's destroy() ends a pool only once kysely itself has used it.
    await database.pool.end();
  }
}

export const redact = (url: string) => {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
};
