import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { testRedisUrl } from '../../../test/support/database.js';
import type { LogLine } from './harness.js';

const ROOT = new URL('../../..', import.meta.url).pathname;

export interface ProjectionsProcess {
  child: ChildProcess;
  lines: LogLine[];
  /** The next (or an earlier, unconsumed) log line with this message; bounded. */
  waitFor: (msg: string, timeoutMs?: number) => Promise<LogLine>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill: (signal?: NodeJS.Signals) => void;
}

/**
 * Starts the `projections` role the way production does: its own process, configured by the environment (Redis
 * for the back office's verifications it takes).
 */
export function spawnProjections(databaseUrl: string, env: Record<string, string> = {}): ProjectionsProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'projections/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, REDIS_URL: testRedisUrl(), LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: LogLine[] = [];
  const waiters = new Set<(line: LogLine) => void>();
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += String(chunk);
  });
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (text) => {
    let parsed: { level: string; msg: string } & Record<string, unknown>;
    try {
      parsed = JSON.parse(text);
    } catch {
      return;
    }
    const line = { level: parsed.level, msg: parsed.msg, fields: parsed };
    lines.push(line);
    for (const waiter of waiters) waiter(line);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  let consumed = 0;
  const waitFor = (msg: string, timeoutMs = 20_000) =>
    new Promise<LogLine>((resolve, reject) => {
      const index = lines.findIndex((line, i) => i >= consumed && line.msg === msg);
      if (index >= 0) {
        consumed = index + 1;
        return resolve(lines[index] as LogLine);
      }
      const waiter = (line: LogLine) => {
        if (line.msg !== msg) return;
        done();
        consumed = lines.length;
        resolve(line);
      };
      const onExit = () => {
        done();
        reject(new Error(`projections exited before logging "${msg}"; stderr:\n${stderr}`));
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no "${msg}" from projections within ${timeoutMs} ms; stderr:\n${stderr}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(waiter);
        child.off('exit', onExit);
      };
      waiters.add(waiter);
      child.once('exit', onExit);
    });
  return { child, lines, waitFor, exited, kill: (signal = 'SIGKILL') => child.kill(signal) };
}
