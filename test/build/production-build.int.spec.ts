// `npm run build`'s output is what the image runs: plain JavaScript, started with `node` and no TypeScript loader,
// beside the production dependencies only. The Dockerfile and docker-compose.yml are held to that output here, since
// no Docker engine runs on the machines that test this repository.
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { build } from '../../scripts/build.js';
import { freePort } from '../../scripts/stack/free-port.js';
import { freshEnv } from '../../scripts/testing/store-process.js';
import { createTestDatabase, testRedisUrl } from '../support/database.js';
import { spawnNode } from '../support/spawned.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const START_MS = 120_000;

async function* filesUnder(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== 'node_modules') yield* filesUnder(path);
    else if (entry.isFile()) yield path;
  }
}

/** A built entry run as the image runs it: `node <file>`, nothing preloaded. */
const runBuilt = (cwd: string, entry: string, env: NodeJS.ProcessEnv) =>
  spawnNode([entry], { cwd, env: { ...env, NODE_OPTIONS: '' } });

/** The stages of a Dockerfile, each from its FROM line. */
const stagesOf = (dockerfile: string) =>
  dockerfile.split(/^(?=FROM )/m).filter((stage) => stage.startsWith('FROM'));

describe('npm run build', () => {
  // Under the repository: the output resolves third-party packages from its node_modules, as the image's do from its own.
  const out = join(ROOT, `.build-test-${randomUUID().slice(0, 8)}`);
  const running: Array<ReturnType<typeof runBuilt>> = [];

  beforeAll(async () => {
    await build({ out, web: false });
  }, START_MS);
  afterAll(async () => {
    for (const process of running) process.child.kill('SIGKILL');
    await Promise.all(running.map((process) => process.exited));
    await rm(out, { recursive: true, force: true });
  });

  it('compiles every role into JavaScript whose relative imports all exist, with no TypeScript left', async () => {
    const files: string[] = [];
    for await (const file of filesUnder(out)) files.push(file);
    expect(files.filter((file) => file.endsWith('.ts'))).toEqual([]);
    for (const entry of [
      'services/api/src/main.js',
      'projections/src/main.js',
      'workers/src/main.js',
      'scripts/migrate.js',
      'services/api/public',
      'services/paypal-sandbox/sdk/paypal-sdk.js',
    ]) {
      expect(existsSync(join(out, entry)), entry).toBe(true);
    }
    const missing: string[] = [];
    for (const file of files.filter((path) => path.endsWith('.js') && !path.includes('/public/'))) {
      const code = await readFile(file, 'utf8');
      for (const [, specifier] of code.matchAll(/(?:from|import\()\s*["'](\.{1,2}\/[^"']+)["']/g)) {
        if (!existsSync(resolve(dirname(file), specifier as string))) missing.push(`${file}: ${specifier}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it(
    'runs migrate, then the api, projections and workers with plain node',
    async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'licensestore-built-'));
      try {
        const port = await freePort();
        const env = freshEnv({
          DATA_DIR: dataDir,
          DATABASE_URL: await createTestDatabase(),
          REDIS_URL: testRedisUrl(),
          PORT: String(port),
          SESSION_SECRET: randomBytes(32).toString('hex'),
          LICENSE_KEY_SECRET: randomBytes(32).toString('base64url'),
          ADMIN_PASSWORD: randomBytes(16).toString('hex'),
          LOG_LEVEL: 'info',
        });
        const migrate = runBuilt(out, 'scripts/migrate.js', env);
        expect(await migrate.exited, migrate.output.join('\n')).toBe(0);
        expect(migrate.output.join('\n')).toContain('seeded the demo store: 18 products');

        for (const entry of ['projections/src/main.js', 'workers/src/main.js', 'services/api/src/main.js']) {
          running.push(runBuilt(out, entry, env));
        }
        const url = `http://127.0.0.1:${port}`;
        await vi.waitFor(
          async () => {
            for (const process of running) {
              if (process.child.exitCode !== null) throw new Error(`exited:\n${process.output.join('\n')}`);
            }
            const ready = await fetch(`${url}/readyz`);
            expect(ready.status).toBe(200);
          },
          { timeout: START_MS, interval: 250 },
        );
        const products = (await (await fetch(`${url}/api/products`)).json()) as unknown[];
        expect(products).toHaveLength(18);
        const sdk = await fetch(`${url}/paypal-sandbox/sdk/js?client-id=sb-emulator-client`);
        expect(sdk.status).toBe(200);
        expect(running.flatMap((process) => process.output).join('\n')).toContain(
          '"msg":"workers role started"',
        );
      } finally {
        for (const process of running.splice(0)) {
          process.child.kill('SIGTERM');
          await process.exited;
        }
        await rm(dataDir, { recursive: true, force: true });
      }
    },
    START_MS * 2,
  );

  it('is what the Dockerfile runs: production dependencies only, no tsx, a non-root user and a healthcheck', async () => {
    const stages = stagesOf(await readFile(join(ROOT, 'Dockerfile'), 'utf8'));
    const runtime = stages.at(-1) as string;
    expect(stages.some((stage) => /RUN .*npm run build/.test(stage))).toBe(true);
    expect(stages.some((stage) => /npm ci --omit=dev/.test(stage))).toBe(true);
    expect(runtime).not.toMatch(/tsx|--include=dev|npm (ci|install)/);
    expect(runtime).toMatch(/^COPY --from=build \/src\/dist\/ \.\/$/m);
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/^HEALTHCHECK [^\n]*\\\n[^\n]*\/healthz/m);
    const command = JSON.parse(/^CMD (\[.*\])$/m.exec(runtime)?.[1] ?? 'null') as string[];
    expect(command[0]).toBe('node');
    expect(existsSync(join(out, command[1] as string))).toBe(true);
  });

  it('is what docker-compose.yml runs for every role', async () => {
    const compose = await readFile(join(ROOT, 'docker-compose.yml'), 'utf8');
    expect(compose).not.toContain('tsx');
    const entries = [...compose.matchAll(/node",? "?([\w/.-]+\.js)|exec node ([\w/.-]+\.js)/g)].map(
      (match) => (match[1] ?? match[2]) as string,
    );
    expect(entries.sort()).toEqual([
      'projections/src/main.js',
      'scripts/migrate.js',
      'services/api/src/main.js',
      'workers/src/main.js',
    ]);
    for (const entry of entries) expect(existsSync(join(out, entry)), entry).toBe(true);
  });
});
