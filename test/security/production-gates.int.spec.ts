// A production start (NODE_ENV=production) takes real money or says loudly that it takes none: every role refuses to
// start without PayPal credentials unless PAYPAL_SIMULATED=1, and without PUBLIC_URL; the emulator is mounted only
// while payments are simulated; the demo catalogue is seeded only when asked.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  clientAuthorization,
  type RunningPaypalSandbox,
  startPaypalSandbox,
} from '@licensestore/paypal-sandbox';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type RoleName, type RoleProcess, spawnRole } from '../../scripts/lib/roles.js';
import { freePort } from '../../scripts/stack/free-port.js';
import { freshEnv } from '../../scripts/testing/store-process.js';
import { createTestDatabase, testRedisUrl } from '../support/database.js';
import { spawnNode } from '../support/spawned.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const START_MS = 120_000;

interface Started {
  output: string[];
  exited: Promise<number | string>;
  stop: () => Promise<unknown>;
}

function role(name: RoleName, env: NodeJS.ProcessEnv): Started & { process: RoleProcess } {
  const output: string[] = [];
  const process = spawnRole(ROOT, name, env, (line) => output.push(line));
  return { process, output, exited: process.exited, stop: () => process.stop(10_000) };
}

/** A command-line entry of the repository (`npm run migrate`, `npm start`), as its npm script runs it. */
function command(script: string, env: NodeJS.ProcessEnv): Started {
  const { child, output, exited } = spawnNode(['--import', 'tsx', script], { cwd: ROOT, env });
  const stop = () => {
    child.kill('SIGKILL');
    return exited;
  };
  return { output, exited, stop };
}

async function waitForHealth(url: string, started: Started): Promise<void> {
  let exit: number | string | undefined;
  void started.exited.then((code) => (exit = code));
  await vi.waitFor(
    async () => {
      if (exit !== undefined) throw new Error(`exited (${exit}):\n${started.output.join('\n')}`);
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
    },
    { timeout: START_MS, interval: 100 },
  );
}

async function waitForLine(started: Started, pattern: RegExp): Promise<void> {
  await vi.waitFor(() => expect(started.output.join('\n')).toMatch(pattern), {
    timeout: START_MS,
    interval: 100,
  });
}

async function eventCount(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ count: string }>('SELECT count(*) FROM event_store.events');
    return Number(rows[0]?.count);
  } finally {
    await client.end();
  }
}

const SIMULATED_WARNING = /"level":"warn".*PAYPAL_SIMULATED=1 in production: payments are simulated/;

describe('A production start', () => {
  let dataDir: string;
  const running: Started[] = [];

  /** What a role run on its own is given, before the PayPal and PUBLIC_URL settings under test. */
  const productionEnv = async (overrides: Record<string, string>) =>
    freshEnv({
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      DATABASE_URL: await createTestDatabase(),
      REDIS_URL: testRedisUrl(),
      SESSION_SECRET: randomBytes(32).toString('hex'),
      LICENSE_KEY_SECRET: randomBytes(32).toString('base64url'),
      ADMIN_PASSWORD: randomBytes(16).toString('hex'),
      SELLER_NAME: 'Example Software Ltd',
      SELLER_ADDRESS: '1 Example Street;Springfield',
      LOG_LEVEL: 'info',
      ...overrides,
    });

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'licensestore-production-'));
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((started) => started.stop()));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  describe('without PayPal credentials, PAYPAL_SIMULATED or PUBLIC_URL', () => {
    it.each([
      ['the api role', 'api'],
      ['the projections role', 'projections'],
      ['the workers role', 'workers'],
      ['npm run migrate', 'scripts/migrate.ts'],
      ['npm start', 'scripts/start.ts'],
    ])(
      '%s refuses to start, with one message naming the variables',
      async (_name, entry) => {
        const env = await productionEnv({});
        const started = entry.includes('/') ? command(entry, env) : role(entry as RoleName, env);
        running.push(started);

        expect(await started.exited).toBe(1);
        const output = started.output.join('\n');
        expect(output.match(/Invalid configuration/g), output).toHaveLength(1);
        expect(output).toMatch(
          /PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET: required in production.*PAYPAL_SIMULATED=1/,
        );
        expect(output).toMatch(/PUBLIC_URL: required in production/);
      },
      START_MS,
    );
  });

  describe('with PAYPAL_SIMULATED=1', () => {
    it(
      'serves the emulator, shows the banner and warns at start; only the api may drive the emulator',
      async () => {
        const port = await freePort();
        const url = `http://127.0.0.1:${port}`;
        const api = role(
          'api',
          await productionEnv({ PAYPAL_SIMULATED: '1', PUBLIC_URL: url, PORT: String(port) }),
        );
        running.push(api);
        await waitForHealth(url, api);

        expect(api.output.join('\n')).toMatch(SIMULATED_WARNING);
        const sdk = await fetch(`${url}/paypal-sandbox/sdk/js?client-id=sb-emulator-client`);
        expect(sdk.status).toBe(200);
        const config = (await (await fetch(`${url}/api/payments/config`)).json()) as Record<string, unknown>;
        expect(config).toMatchObject({ simulated: true, sdkBaseUrl: '/paypal-sandbox/sdk/js' });
        // Its credentials are this process's own: the documented development ones open nothing here.
        const deliveries = await fetch(`${url}/paypal-sandbox/simulate/deliveries`, {
          headers: { authorization: clientAuthorization() },
        });
        expect(deliveries.status).toBe(401);
      },
      START_MS,
    );

    it.each([['projections'], ['workers']] as const)(
      'the %s role warns at start too',
      async (name) => {
        const started = role(
          name,
          await productionEnv({ PAYPAL_SIMULATED: '1', PUBLIC_URL: 'https://store.example' }),
        );
        running.push(started);
        await waitForLine(started, SIMULATED_WARNING);
      },
      START_MS,
    );
  });

  describe('with PayPal credentials', () => {
    let paypal: RunningPaypalSandbox;
    const credentials = { clientId: 'store-live-client-id', clientSecret: 'store-live-client-secret' };

    beforeAll(async () => {
      paypal = await startPaypalSandbox({ host: '127.0.0.1', ...credentials });
    });
    afterAll(() => paypal?.stop());

    it(
      'seeds no demo catalogue, mounts no emulator, and points the browser at the PayPal it is given',
      async () => {
        const port = await freePort();
        const url = `http://127.0.0.1:${port}`;
        const env = await productionEnv({
          PAYPAL_CLIENT_ID: credentials.clientId,
          PAYPAL_CLIENT_SECRET: credentials.clientSecret,
          PAYPAL_API_BASE_URL: paypal.baseUrl,
          PUBLIC_URL: url,
          PORT: String(port),
        });
        const migrate = command('scripts/migrate.ts', env);
        running.push(migrate);
        expect(await migrate.exited, migrate.output.join('\n')).toBe(0);
        expect(await eventCount(env.DATABASE_URL as string)).toBe(0);

        const api = role('api', env);
        running.push(api);
        await waitForHealth(url, api);
        for (const path of ['/paypal-sandbox/sdk/js?client-id=x', '/paypal-sandbox/simulate/deliveries']) {
          const response = await fetch(`${url}${path}`, {
            headers: { authorization: clientAuthorization() },
          });
          expect([path, response.status]).toEqual([path, 404]);
        }
        const config = (await (await fetch(`${url}/api/payments/config`)).json()) as Record<string, unknown>;
        expect(config).toMatchObject({
          clientId: credentials.clientId,
          sdkBaseUrl: `${paypal.baseUrl}/sdk/js`,
        });
        expect(api.output.join('\n')).not.toMatch(/PAYPAL_SIMULATED|payments are simulated/);
      },
      START_MS,
    );
  });
});
