// `npm start` as the README runs it, for tests that need the whole store: its own data directory and port, its own
// embedded Postgres and redis-server, in a process group of its own like a terminal's foreground job.
import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The environment of a fresh machine: nothing of the store configured, so `npm start` brings its own services. */
export function freshEnv(overrides: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of [
    'DATABASE_URL',
    'REDIS_URL',
    'EVENTSTORE_CONNECTION_STRING',
    'SESSION_SECRET',
    'PUBLIC_URL',
    'PAYPAL_CLIENT_ID',
    'PAYPAL_CLIENT_SECRET',
    'PAYPAL_SIMULATED',
    'PAYPAL_API_BASE_URL',
    'SEED_DEMO',
    'SMTP_URL',
  ]) {
    delete env[key];
  }
  // Tests that need the web client build it once beforehand.
  return { ...env, NODE_ENV: 'development', SKIP_WEB_BUILD: '1', ...overrides };
}

export interface StoreProcess {
  child: ChildProcess;
  /** Every line the supervisor and its roles printed so far. */
  output: string[];
  exited: Promise<number | null>;
}

export function spawnStore(env: NodeJS.ProcessEnv): StoreProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    if (stream) createInterface({ input: stream }).on('line', (line) => output.push(line));
  }
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return { child, output, exited };
}

/** Resolves with the URL the supervisor prints once serving; rejects if it exits first. */
export function waitForUrl({ child, output }: StoreProcess): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const pattern = /running at (http:\/\/localhost:\d+)/;
    const found = output.map((line) => pattern.exec(line)).find(Boolean);
    if (found?.[1]) return resolvePromise(found[1]);
    for (const stream of [child.stdout, child.stderr]) {
      if (!stream) continue;
      createInterface({ input: stream }).on('line', (line) => {
        const match = pattern.exec(line);
        if (match?.[1]) resolvePromise(match[1]);
      });
    }
    child.once('exit', (code) =>
      reject(new Error(`npm start exited (${code}) before serving:\n${output.join('\n')}`)),
    );
  });
}

/** Ctrl-C in a terminal: SIGINT to the foreground process group. */
export async function ctrlC(store: Pick<StoreProcess, 'child' | 'exited'>): Promise<number | null> {
  process.kill(-(store.child.pid as number), 'SIGINT');
  return store.exited;
}

/** Last resort after a failed test: nothing of the store outlives the run. */
export function killStore(store: Pick<StoreProcess, 'child'>): void {
  if (store.child.exitCode === null && store.child.pid) process.kill(-store.child.pid, 'SIGKILL');
}
