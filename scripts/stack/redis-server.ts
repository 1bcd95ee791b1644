import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { freePort } from './free-port.js';

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

/** Starts `redis-server` from PATH with its data (append-only file) in `dir`. */
export async function startRedisServer(
  dir: string,
  log: (line: string) => void = () => {},
): Promise<RunningRedis> {
  if (spawnSync('redis-server', ['--version']).error) throw new RedisNotInstalledError();
  await mkdir(dir, { recursive: true });
  const port = await freePort();
  let child = await spawnRedis(dir, port, log);
  return {
    url: `redis://127.0.0.1:${port}`,
    restart: async () => {
      await stopChild(child);
      child = await spawnRedis(dir, port, log);
    },
    stop: () => stopChild(child),
  };
}

async function spawnRedis(dir: string, port: number, log: (line: string) => void): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    [
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
