import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { makeOwnerOnly } from './owner-only.js';

export interface RunningRedis {
  url: string;
  /** Stops the server (it writes its append-only file) and starts it again on the same port and data. */
  restart: () => Promise<void>;
  stop: () => Promise<void>;
}

export class RedisNotInstalledError extends Error {
  constructor() {
    super(
      [
        'redis-server was not found on PATH, and REDIS_URL is not set.',
        'Install it (Debian/Ubuntu: sudo apt-get install redis-server; macOS: brew install redis)',
        'or point REDIS_URL at a running Redis.',
      ].join('\n'),
    );
  }
}

/**
 * Starts `redis-server` from PATH on loopback, with its data (append-only file: sessions) in `dir`, readable by this
 * user only, and `password` required of every client (give the one kept for `dir`; a fresh random one suits a
 * directory used once). The URL carries the password.
 */
export async function startRedisServer(
  dir: string,
  log: (line: string) => void = () => {},
  password: string = randomBytes(24).toString('base64url'),
): Promise<RunningRedis> {
  if (spawnSync('redis-server', ['--version']).error) throw new RedisNotInstalledError();
  await makeOwnerOnly(dir);
  // In a file, not on the command line, where every user of the machine could read it (ps).
  const configFile = join(dir, 'redis.conf');
  await writeFile(configFile, `requirepass ${password}\n`, { mode: 0o600 });
  await chmod(configFile, 0o600);
  const port = await freePort();
  let child = await spawnRedis(configFile, dir, port, log);
  return {
    url: `redis://:${encodeURIComponent(password)}@127.0.0.1:${port}`,
    restart: async () => {
      await stopChild(child);
      child = await spawnRedis(configFile, dir, port, log);
    },
    stop: () => stopChild(child),
  };
}

async function spawnRedis(
  configFile: string,
  dir: string,
  port: number,
  log: (line: string) => void,
): Promise<ChildProcess> {
  // umask 077: the append-only files it creates are 0600 in 0700 directories.
  const child = spawn(
    'sh',
    [
      '-c',
      'umask 077 && exec redis-server "$@"',
      'redis-server',
      configFile,
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--appendonly',
      'yes',
      '--save',
      '',
      '--daemonize',
      'no',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      log(text.trimEnd());
      if (text.includes('Ready to accept connections')) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`redis-server exited with code ${code}`)));
  });
  return child;
}

const stopChild = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
