import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { vi } from 'vitest';
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
    lines.push({ level: parsed.level, msg: parsed.msg, fields: parsed });
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  let consumed = 0;
  const waitFor = async (msg: string, timeoutMs = 20_000) => {
    const index = await vi.waitFor(
      () => {
        const found = lines.findIndex((line, i) => i >= consumed && line.msg === msg);
        if (found < 0)
          throw new Error(`no "${msg}" from projections within ${timeoutMs} ms; stderr:\n${stderr}`);
        return found;
      },
      { timeout: timeoutMs, interval: 20 },
    );
    consumed = index + 1;
    return lines[index] as LogLine;
  };
  return { child, lines, waitFor, exited, kill: (signal = 'SIGKILL') => child.kill(signal) };
}
