import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

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
