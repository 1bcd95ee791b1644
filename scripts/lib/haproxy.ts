// HAProxy in front of the cluster's api instances, with the rules of deploy/haproxy.cfg (the same file
// docker-compose.yml mounts): a child of the supervisor, like redis-server, in its own process group.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as delay } from 'node:timers/promises';
import { killGroup } from './roles.js';

export class HaproxyNotInstalledError extends Error {
  constructor() {
    super(
      [
        'haproxy was not found on PATH; npm run start:cluster runs it in front of the api instances.',
        'Install it (Debian/Ubuntu: sudo apt-get install haproxy; macOS: brew install haproxy).',
      ].join('\n'),
    );
  }
}

export const haproxyInstalled = () => !spawnSync('haproxy', ['-v']).error;

export interface BalancerOptions {
  root: string;
  /** Where the store is served, on every interface (PORT). */
  port: number;
  /** Each api instance's origin by its server name, which deploy/haproxy.cfg names: api-1, api-2. */
  apis: ReadonlyMap<string, string>;
  /** The origin of the one PayPal emulator every instance shares, served at /paypal-sandbox. */
  paypalSandbox?: string | undefined;
  /** An owner-only directory for the runtime API's socket. */
  runDir: string;
  /** Each line haproxy prints: instances leaving and rejoining the rotation, alerts. */
  log: (line: string) => void;
}

export interface Balancer {
  url: string;
  /** Names of the servers in rotation: up, and their last health check passed. */
  inRotation: () => Promise<string[]>;
  /** Answers each server has given so far, by name. */
  served: () => Promise<Record<string, number>>;
  /** Resolves with haproxy's exit code (or signal) when it has gone, for whatever reason. */
  exited: Promise<number | string>;
  /** Stops taking connections and lets the requests in flight finish (20 s at most, in the configuration). */
  stop: () => Promise<void>;
}

const STARTUP_MS = 10_000;
const STOP_MS = 25_000;

/**
 * haproxy cannot notice that the supervisor has died; the shell that starts it can. Its stdin is a pipe from the
 * supervisor that reaches end of file on stop() or when the supervisor dies, and haproxy then stops gently
 * (SIGUSR1: no new connections, requests in flight finish).
 */
const STOP_WITH_PARENT = [
  'haproxy -db -f "$1" </dev/null &',
  'pid=$!',
  'exec 3<&0',
  '{ read -r _ <&3; kill -USR1 "$pid" 2>/dev/null; } &',
  'wait "$pid"',
].join('\n');

/** The environment deploy/haproxy.cfg reads: api-1's address is API_1. */
const serverVariable = (name: string) => name.toUpperCase().replaceAll('-', '_');
const hostPort = (origin: string) => new URL(origin).host;

/** Starts haproxy; resolves once it listens on `port`, rejects with its own words if it cannot start. */
export async function startBalancer(options: BalancerOptions): Promise<Balancer> {
  const socket = join(options.runDir, 'haproxy.sock');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    PORT: String(options.port),
    STATS_SOCKET: socket,
    ...Object.fromEntries([...options.apis].map(([name, url]) => [serverVariable(name), hostPort(url)])),
    ...(options.paypalSandbox && { PAYPAL_SANDBOX: hostPort(options.paypalSandbox) }),
  };
  const child: ChildProcess = spawn(
    'sh',
    ['-c', STOP_WITH_PARENT, 'haproxy', join(options.root, 'deploy/haproxy.cfg')],
    { env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  /** What it printed while starting, for the error when it cannot start. */
  let startup: string[] | undefined = [];
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    createInterface({ input: stream }).on('line', (line) => {
      startup?.push(line);
      options.log(line);
    });
  }
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => {
      // The shell's watcher of the pipe goes with it.
      child.stdin?.end();
      killGroup(child, 'SIGKILL');
      resolve(code ?? signal ?? 'unknown');
    }),
  );
  /** Its output has ended too (after exit, with the watcher gone). */
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const ask = (command: string) => runtimeApi(socket, command);
  const stop = async () => {
    child.stdin?.end();
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), STOP_MS);
    await exited;
    clearTimeout(timer);
    await rm(socket, { force: true });
  };

  const deadline = Date.now() + STARTUP_MS;
  for (;;) {
    const code = await Promise.race([exited, delay(100).then(() => undefined)]);
    if (code !== undefined) {
      await closed;
      throw new Error(`haproxy exited (${code}) while starting:\n${startup?.join('\n')}`);
    }
    const listening = await ask('show info').then(
      () => true,
      () => false,
    );
    if (listening) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`haproxy did not open ${socket} within ${STARTUP_MS / 1000}s`);
    }
  }
  startup = undefined;

  return {
    url: `http://127.0.0.1:${options.port}`,
    inRotation: async () =>
      (await servers(ask)).filter((server) => server.inRotation).map((server) => server.name),
    served: async () =>
      Object.fromEntries((await servers(ask)).map((server) => [server.name, server.answers])),
    exited,
    stop,
  };
}

/** One command to haproxy's runtime API; resolves with its whole answer (the socket closes after it). */
function runtimeApi(socket: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const connection = createConnection(socket, () => connection.end(`${command}\n`));
    connection.on('data', (chunk: Buffer) => chunks.push(chunk));
    connection.on('end', () => resolve(Buffer.concat(chunks).toString()));
    connection.on('error', reject);
  });
}

interface ServerState {
  name: string;
  /** Up, and its last health check passed (haproxy counts a server up until its first check says otherwise). */
  inRotation: boolean;
  /** HTTP answers it has given. */
  answers: number;
}

const ANSWER_COLUMNS = ['hrsp_1xx', 'hrsp_2xx', 'hrsp_3xx', 'hrsp_4xx', 'hrsp_5xx', 'hrsp_other'];

/** The servers of `show stat` (its rows without the frontend and backend totals). */
async function servers(ask: (command: string) => Promise<string>): Promise<ServerState[]> {
  const [header = '', ...rows] = (await ask('show stat')).trim().split('\n');
  const columns = header.replace(/^# /, '').split(',');
  return rows
    .map((row) => {
      const values = row.split(',');
      return (column: string) => values[columns.indexOf(column)] ?? '';
    })
    .filter((field) => field('svname') !== 'FRONTEND' && field('svname') !== 'BACKEND')
    .map((field) => ({
      name: field('svname'),
      inRotation: field('status') === 'UP' && field('check_status').replace(/^\* /, '') === 'L7OK',
      answers: ANSWER_COLUMNS.reduce((sum, column) => sum + Number(field(column) || 0), 0),
    }));
}
