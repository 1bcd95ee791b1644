// `npm start`: the whole store on one machine, from nothing but Node and redis-server.
//
// Process model (docs/decisions/003-local-stack.md):
//   start (this process, the supervisor)
//   ├── services host   own process group: embedded Postgres + redis-server, for whichever URL is not configured
//   ├── projections     own process group: node --import tsx projections/src/main.ts
//   ├── workers         own process group: node --import tsx workers/src/main.ts
//   └── api             own process group: node --import tsx services/api/src/main.ts
// Each role is the same entry production runs, configured by the environment this supervisor fills in. A Ctrl-C in
// the terminal reaches only the supervisor, which stops api, workers, projections, then Redis and Postgres; a
// second Ctrl-C kills everything at once.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { type Config, ConfigError, loadConfig } from '@licensestore/shared/config';
import { openDatabase } from '@licensestore/shared/db';
import { waitForProjections } from '@licensestore/shared/readmodel';
import { lockDataDir } from './lib/lock.js';
import { prepareStore } from './lib/prepare.js';
import { type RoleName, type RoleProcess, spawnRole } from './lib/roles.js';
import { resolveLicenceKeySecret, resolveSessionSecret } from './lib/secrets.js';
import { type LocalServices, spawnServicesHost } from './lib/services.js';
import { RedisNotInstalledError } from './stack/redis-server.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DATABASE_NAME = 'licensestore';
/** Roles stop in this order: no new requests first, then side effects, then the read model. */
const STOP_ORDER: RoleName[] = ['api', 'workers', 'projections'];
const START_ORDER: RoleName[] = ['projections', 'workers', 'api'];
const ROLE_GRACE_MS = 20_000;
const READY_TIMEOUT_MS = 180_000;
/** npm forwards the terminal's SIGINT to the script as well: a repeat this soon is the same Ctrl-C. */
const SAME_SIGNAL_MS = 500;

const out = (line: string) => process.stdout.write(`${line}\n`);
const log = (line: string) => out(`${'start'.padEnd(11)} | ${line}`);

class Aborted extends Error {}

/** Everything this process started, so a stop at any point takes down exactly what is running. */
class Stack {
  services: LocalServices | undefined;
  readonly roles = new Map<RoleName, RoleProcess>();
  release: (() => Promise<void>) | undefined;
  readonly cleanup: Array<() => Promise<void>> = [];
  exitCode = 0;
  private stopping: Promise<void> | undefined;
  private stopRequestedAt = 0;
  private markStopped: () => void = () => {};
  /** Resolves once an orderly stop has finished. */
  readonly stopped = new Promise<void>((done) => {
    this.markStopped = done;
  });

  get isStopping() {
    return this.stopping !== undefined;
  }

  assertRunning() {
    if (this.stopping) throw new Aborted();
  }

  /** A part failed: stop everything and exit non-zero. */
  fail(reason: string) {
    if (this.stopping) return;
    log(reason);
    this.exitCode = 1;
    void this.stop();
  }

  /** Orderly stop: api, workers, projections, then Redis and Postgres. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      for (const name of STOP_ORDER) {
        const role = this.roles.get(name);
        if (!role) continue;
        log(`stopping ${name}`);
        await role.stop(ROLE_GRACE_MS);
      }
      if (this.services) {
        log('stopping Redis and Postgres');
        await this.services.stop();
      }
      for (const step of this.cleanup) await step().catch(() => {});
      await this.release?.();
      log('stopped');
    })().finally(() => this.markStopped());
    return this.stopping;
  }

  /** Second Ctrl-C: kill every process group at once (Postgres and the Redis AOF recover on the next start). */
  force() {
    for (const role of this.roles.values()) role.kill();
    this.services?.kill();
    void (this.release?.() ?? Promise.resolve()).finally(() => process.exit(130));
  }

  onSignal = (signal: NodeJS.Signals) => {
    const now = Date.now();
    if (!this.stopping) {
      this.stopRequestedAt = now;
      log(`${signal}: stopping (Ctrl-C again to force)`);
      void this.stop();
    } else if (now - this.stopRequestedAt > SAME_SIGNAL_MS) {
      log(`${signal}: forcing`);
      this.force();
    }
  };
}

async function main(): Promise<number> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
  const dataDir = resolve(config.DATA_DIR);
  if (!config.REDIS_URL && !redisServerInstalled()) {
    console.error(new RedisNotInstalledError().message);
    return 1;
  }
  if (!(await portIsFree(config.PORT))) {
    console.error(
      `Port ${config.PORT} is in use. Choose another one, e.g. PORT=${config.PORT + 1} npm start`,
    );
    return 1;
  }
  await mkdir(dataDir, { recursive: true });

  const stack = new Stack();
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, stack.onSignal);
  // A connection of the migrations or the seed that Postgres cuts during a stop must not abort the stop itself.
  process.on('uncaughtException', (error) => {
    if (stack.isStopping) return;
    console.error(error);
    stack.fail('stopping after an unexpected error');
  });
  try {
    stack.release = (await lockDataDir(dataDir)).release;
    log(`data in ${dataDir}`);

    const webBuild = buildWebIfStale();
    const needPostgres = !config.DATABASE_URL;
    const needRedis = !config.REDIS_URL;
    let local: { databaseUrl?: string | undefined; redisUrl?: string | undefined } = {};
    if (needPostgres || needRedis) {
      const what = [needPostgres && 'embedded Postgres', needRedis && 'redis-server']
        .filter(Boolean)
        .join(' and ');
      log(`starting ${what} (logs in ${join(dataDir, 'logs')})`);
      const services = spawnServicesHost(ROOT, {
        dataDir,
        postgres: needPostgres,
        database: DATABASE_NAME,
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
    const licenceKeySecret = await resolveLicenceKeySecret(dataDir, config.LICENCE_KEY_SECRET);
    // For tools run beside the stack (`env $(cat .data/stack.env) npm run rebuild -- all`); removed on stop.
    const stackEnv = join(dataDir, 'stack.env');
    await writeFile(stackEnv, `DATABASE_URL=${databaseUrl}\nREDIS_URL=${redisUrl}\n`, { mode: 0o600 });
    stack.cleanup.push(() => rm(stackEnv, { force: true }));

    log(`database ${redact(databaseUrl)}, redis ${redact(redisUrl)} (URLs in ${stackEnv})`);
    log(config.EVENTSTORE_CONNECTION_STRING ? 'event store: EventStoreDB' : 'event store: Postgres');
    const { lastPosition } = await prepareStore({
      databaseUrl,
      eventStoreConnectionString: config.EVENTSTORE_CONNECTION_STRING,
      licenceKeySecret,
      log,
    });
    await webBuild;
    stack.assertRunning();

    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: config.NODE_ENV,
      PORT: String(config.PORT),
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      SESSION_SECRET: sessionSecret,
      LICENCE_KEY_SECRET: licenceKeySecret,
    };
    const ready = new AbortController();
    for (const name of START_ORDER) superviseRole(stack, name, env, ready.signal);

    await waitUntilServing(stack, config.PORT);
    if (lastPosition) await waitForSeedProjected(databaseUrl, lastPosition);
    stack.assertRunning();
    ready.abort();
    log(
      `Licence store running at http://localhost:${config.PORT}${config.PUBLIC_URL ? ` (public URL ${config.PUBLIC_URL})` : ''}`,
    );
    log('Ctrl-C to stop');
  } catch (error) {
    // Failures caused by a stop in progress (connections cut as Postgres goes down) are not news.
    if (!(error instanceof Aborted) && !stack.isStopping) {
      console.error(error instanceof Error ? error.message : error);
      stack.exitCode = 1;
      await stack.stop();
    }
  }
  await stack.stopped;
  return stack.exitCode;
}

/**
 * Starts a role and keeps it running: before the store is serving, a role that exits fails the start; after that,
 * it is restarted with a growing delay (reset once it has run for a minute).
 */
function superviseRole(
  stack: Stack,
  name: RoleName,
  env: NodeJS.ProcessEnv,
  starting: AbortSignal,
  attempt = 0,
) {
  const role = spawnRole(ROOT, name, env, out);
  stack.roles.set(name, role);
  const startedAt = Date.now();
  void role.exited.then((code) => {
    if (stack.isStopping) return;
    if (!starting.aborted) {
      stack.fail(`${name} exited (${code}) while starting`);
      return;
    }
    const next = Date.now() - startedAt > 60_000 ? 0 : attempt + 1;
    const delay = Math.min(30_000, 1000 * 2 ** Math.max(0, next - 1));
    log(`${name} exited (${code}); restarting in ${delay / 1000}s`);
    setTimeout(() => {
      if (!stack.isStopping) superviseRole(stack, name, env, starting, next);
    }, delay);
  });
}

/** Readiness probe of the api: /healthz answering 200, checked every 100 ms while the api process lives. */
async function waitUntilServing(stack: Stack, port: number) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    stack.assertRunning();
    try {
      const response = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline)
      throw new Error(`the api did not answer on port ${port} within ${READY_TIMEOUT_MS / 1000}s`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

/** The storefront should show the demo catalogue the moment the URL is printed: wait for the products projector. */
async function waitForSeedProjected(databaseUrl: string, position: string) {
  const database = openDatabase(databaseUrl, { max: 2 });
  try {
    const caughtUp = await waitForProjections(database.pool, position, {
      projectors: ['products'],
      timeoutMs: READY_TIMEOUT_MS,
    });
    if (!caughtUp) log('the products projection has not caught up with the demo catalogue yet');
  } finally {
    // Only the raw pool was used; kysely's destroy() ends a pool only once kysely itself has used it.
    await database.pool.end();
  }
}

const redact = (url: string) => {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
};

function redisServerInstalled() {
  return !spawnSync('redis-server', ['--version']).error;
}

/** The api listens on every interface; a port taken on any of them would fail it after a slow start-up. */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((done) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) =>
      done(error.code !== 'EADDRINUSE' && error.code !== 'EACCES'),
    );
    server.listen({ port, exclusive: true }, () => server.close(() => done(true)));
  });
}

/** Newest modification time of a file under `path` (a file or a directory tree). */
function newestChange(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, entry) => Math.max(newest, newestChange(join(path, entry))), 0);
}

const WEB_SOURCES = ['web/src', 'web/public', 'web/index.html', 'web/vite.config.ts', 'web/package.json'];

/**
 * Builds web/dist when it is missing or older than the web client's sources (a pull brought new code), unless
 * SKIP_WEB_BUILD=1 or WEB_DIST names a build made elsewhere.
 */
async function buildWebIfStale(): Promise<void> {
  if (process.env.SKIP_WEB_BUILD === '1' || process.env.WEB_DIST) return;
  const built = join(ROOT, 'web/dist/index.html');
  const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0;
  if (builtAt > Math.max(...WEB_SOURCES.map((source) => newestChange(join(ROOT, source))))) return;
  const manifest = join(ROOT, 'web/package.json');
  if (!existsSync(manifest)) return;
  const { scripts } = JSON.parse(readFileSync(manifest, 'utf8')) as { scripts?: Record<string, string> };
  if (!scripts?.build) return;
  log(
    builtAt === 0
      ? 'building the web client (web/dist is missing)'
      : 'rebuilding the web client (its sources changed)',
  );
  const child = spawn('npm', ['run', 'build', '--workspace', 'web'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => out(`${'web build'.padEnd(11)} | ${line}`));
  }
  const code = await new Promise<number | null>((done) => child.once('exit', done));
  if (code !== 0) log(`the web build failed (exit ${code}); serving the API without the web client`);
}

process.exitCode = await main();
// Anything still holding the event loop (a stuck socket) must not keep a stopped stack's terminal.
setTimeout(() => process.exit(), 3000).unref();
