// The local servers and files of `npm start` keep their secrets: generated passwords for embedded Postgres and
// redis-server (kept under DATA_DIR/secrets), and owner-only modes where sessions, keys and sign-in links are written.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmbeddedPostgres } from '../../scripts/stack/embedded-postgres.js';
import { freePort } from '../../scripts/stack/free-port.js';
import {
  ctrlC,
  freshEnv,
  killStore,
  type StoreProcess,
  spawnStore,
  waitForUrl,
} from '../../scripts/testing/store-process.js';

const STARTUP_MS = 180_000;

const modeOf = (path: string) => statSync(path).mode & 0o777;

/** Every directory and file below `dir`, with its permission bits. */
function modesBelow(dir: string): Array<{ path: string; directory: boolean; mode: number }> {
  return readdirSync(dir, { withFileTypes: true, recursive: true }).map((entry) => {
    const path = join(entry.parentPath, entry.name);
    return { path, directory: entry.isDirectory(), mode: modeOf(path) };
  });
}

/** What a connection attempt ends with: 'ok', or the server's error code. */
async function postgresSignIn(connectionString: string): Promise<string> {
  const client = new pg.Client({ connectionString });
  try {
    await client.connect();
    return 'ok';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  } finally {
    await client.end().catch(() => {});
  }
}

/** PING over a fresh connection, after AUTH with the URL's password if it has one: Redis's first reply that is not +OK. */
function redisPing(url: string): Promise<string> {
  const { hostname, port, password } = new URL(url);
  const commands = `${password ? `AUTH ${decodeURIComponent(password)}\r\n` : ''}PING\r\n`;
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => socket.write(commands));
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString();
      const replies = received.split('\r\n').filter((line) => line !== '' && line !== '+OK');
      if (replies[0]) {
        socket.destroy();
        resolve(replies[0].replace(/^[+-]/, ''));
      }
    });
    socket.on('error', reject);
  });
}

function withPassword(url: string, password: string | null): string {
  const parsed = new URL(url);
  parsed.username = password === null ? '' : parsed.username;
  parsed.password = password ?? '';
  return parsed.toString();
}

describe('npm start, local secrets', () => {
  let dataDir: string;
  let store: StoreProcess & { url: string };
  let stackEnv: Record<string, string>;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'licensestore-secrets-'));
    const port = await freePort();
    const started = spawnStore(freshEnv({ DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' }));
    store = { ...started, url: await waitForUrl(started) };
    stackEnv = Object.fromEntries(
      readFileSync(join(dataDir, 'stack.env'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
  }, STARTUP_MS);

  afterAll(async () => {
    if (store) {
      const code = await Promise.race([
        ctrlC(store),
        new Promise<'timeout'>((done) => setTimeout(() => done('timeout'), 30_000)),
      ]);
      if (code === 'timeout') killStore(store);
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps generated secrets, the servers’ passwords among them, owner-only in DATA_DIR/secrets', () => {
    const secrets = join(dataDir, 'secrets');
    expect(modeOf(secrets)).toBe(0o700);
    const files = readdirSync(secrets).sort();
    expect(files).toEqual(
      expect.arrayContaining(['licence-key-secret', 'postgres-password', 'redis-password', 'session-secret']),
    );
    for (const file of files) expect([file, modeOf(join(secrets, file))]).toEqual([file, 0o600]);
  });

  it('writes stack.env owner-only, with URLs that carry the passwords and work', async () => {
    expect(modeOf(join(dataDir, 'stack.env'))).toBe(0o600);
    const postgresPassword = readFileSync(join(dataDir, 'secrets', 'postgres-password'), 'utf8').trim();
    const redisPassword = readFileSync(join(dataDir, 'secrets', 'redis-password'), 'utf8').trim();
    expect(decodeURIComponent(new URL(stackEnv.DATABASE_URL as string).password)).toBe(postgresPassword);
    expect(decodeURIComponent(new URL(stackEnv.REDIS_URL as string).password)).toBe(redisPassword);
    expect(await postgresSignIn(stackEnv.DATABASE_URL as string)).toBe('ok');
    expect(await redisPing(stackEnv.REDIS_URL as string)).toBe('PONG');
  });

  it('runs Postgres that refuses postgres:postgres', async () => {
    // 28P01: invalid_password.
    expect(await postgresSignIn(withPassword(stackEnv.DATABASE_URL as string, 'postgres'))).toBe('28P01');
  });

  it('runs Redis that refuses a client without the password', async () => {
    expect(await redisPing(withPassword(stackEnv.REDIS_URL as string, null))).toMatch(/NOAUTH/);
    expect(await redisPing(withPassword(stackEnv.REDIS_URL as string, 'wrong-password'))).toMatch(
      /WRONGPASS|invalid password/i,
    );
  });

  it("keeps Redis's append-only files (sessions) owner-only", () => {
    const redisDir = join(dataDir, 'redis');
    expect(modeOf(redisDir)).toBe(0o700);
    const below = modesBelow(redisDir);
    expect(below.some((entry) => !entry.directory)).toBe(true);
    for (const entry of below) expect(entry).toMatchObject({ mode: entry.directory ? 0o700 : 0o600 });
  });

  it("keeps the servers' logs (Postgres names users in its DETAIL lines) owner-only in DATA_DIR/logs", () => {
    const logsDir = join(dataDir, 'logs');
    expect(modeOf(logsDir)).toBe(0o700);
    const below = modesBelow(logsDir);
    expect(below.map((entry) => entry.path)).toContain(join(logsDir, 'postgres.log'));
    for (const entry of below) expect(entry).toMatchObject({ mode: entry.directory ? 0o700 : 0o600 });
  });

  it('writes e-mails (sign-in links, license keys) owner-only into DATA_DIR/mail', async () => {
    const response = await fetch(`${store.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: store.url },
      body: JSON.stringify({ email: 'ada@example.com' }),
    });
    expect(response.status).toBe(200);
    const mailDir = join(dataDir, 'mail');
    await vi.waitFor(() => expect(readdirSync(mailDir).some((name) => name.endsWith('.eml'))).toBe(true), {
      timeout: 10_000,
      interval: 50,
    });
    expect(modeOf(mailDir)).toBe(0o700);
    for (const entry of modesBelow(mailDir)) expect(entry).toMatchObject({ mode: 0o600 });
  });
});

describe('embedded Postgres initialised with the old fixed password', () => {
  it('starts with the generated password, which replaces postgres:postgres', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'licensestore-pg-upgrade-'));
    // As root, Postgres runs as the `postgres` user, which must be able to enter the directory.
    await chmod(dir, 0o755);
    try {
      const before = await startEmbeddedPostgres(join(dir, 'postgres'), undefined, 'postgres');
      await before.stop();

      const generated = 'a-generated-password-of-forty-characters';
      const after = await startEmbeddedPostgres(join(dir, 'postgres'), undefined, generated);
      try {
        const url = after.url('postgres');
        expect(new URL(url).password).toBe(generated);
        expect(await postgresSignIn(url)).toBe('ok');
        expect(await postgresSignIn(withPassword(url, 'postgres'))).toBe('28P01');
      } finally {
        await after.stop();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
