import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface Spawned {
  child: ChildProcess;
  /** Every line it printed so far, stdout and stderr as they came. */
  output: string[];
  /** Its exit code, or the signal that ended it. */
  exited: Promise<number | string>;
}

/** `node <args>` as a child process whose lines are kept for assertions. */
export function spawnNode(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Spawned {
  const child = spawn(process.execPath, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    if (stream) createInterface({ input: stream }).on('line', (line) => output.push(line));
  }
  const exited = new Promise<number | string>((done) =>
    child.once('exit', (code, signal) => done(code ?? signal ?? 'unknown')),
  );
  return { child, output, exited };
}

/**
 * A backup script (`backup-cli.ts`, `restore-cli.ts`) run as `npm run backup` and `npm run restore` run it: from the
 * repository's root through tsx, its environment the caller's PATH and `env`, nothing else.
 */
export function spawnBackupScript(script: string, args: string[], env: NodeJS.ProcessEnv): Spawned {
  return spawnNode(['--import', 'tsx', `scripts/backup/${script}`, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, ...env },
  });
}
