import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** The store's roles, and the PayPal emulator that `npm run start:cluster` runs as a process of its own. */
export type RoleName = 'api' | 'projections' | 'workers' | 'paypal-sandbox';

/** Each role's process entry, relative to the repository root (also what `npm run start:<role>` runs). */
export const roleEntries: Record<RoleName, string> = {
  api: 'services/api/src/main.ts',
  projections: 'projections/src/main.ts',
  workers: 'workers/src/main.ts',
  'paypal-sandbox': 'services/paypal-sandbox/src/main.ts',
};

export interface RoleProcess {
  name: RoleName;
  /** Names this instance in the output: the role's name, or e.g. `api-2` when a role runs several times. */
  label: string;
  child: ChildProcess;
  /** Resolves with the exit code (or the signal's name) when the process has gone. */
  exited: Promise<number | string>;
  /** SIGTERM, then SIGKILL to its whole process group after `graceMs`. */
  stop: (graceMs: number) => Promise<number | string>;
  kill: () => void;
}

/** Width of the name column of the supervisor's output. */
export const LABEL_WIDTH = 14;

/**
 * How a role's code runs: `sources`, the TypeScript under `root` through tsx (`npm start`); `built`, `npm run
 * build`'s output under `root` with plain node, as the image runs it.
 */
export type RoleRuntime = 'sources' | 'built';

/** The node arguments that start a role, and the guard that ends it with its parent, from `root`. */
function roleArguments(root: string, name: RoleName, runtime: RoleRuntime): string[] {
  const [guard, entry] = ['scripts/lib/exit-with-parent.ts', roleEntries[name]].map((file) =>
    join(root, runtime === 'built' ? file.replace(/\.ts$/, '.js') : file),
  ) as [string, string];
  return [...(runtime === 'sources' ? ['--import', 'tsx'] : []), '--import', guard, entry];
}

/**
 * Starts a role as a child process. It gets its own process group, so a Ctrl-C in the terminal reaches only the
 * supervisor, which stops the roles in order.
 */
export function spawnRole(
  root: string,
  name: RoleName,
  env: NodeJS.ProcessEnv,
  write: (line: string) => void,
  label: string = name,
  runtime: RoleRuntime = 'sources',
): RoleProcess {
  const child = spawn(process.execPath, roleArguments(root, name, runtime), {
    cwd: root,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const prefix = `${label.padEnd(LABEL_WIDTH)} | `;
  for (const stream of [child.stdout, child.stderr]) {
    if (stream) createInterface({ input: stream }).on('line', (line) => write(`${prefix}${line}`));
  }
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });
  const kill = () => killGroup(child, 'SIGKILL');
  const stop = async (graceMs: number) => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(kill, graceMs);
      await exited;
      clearTimeout(timer);
    }
    // Anything the role left behind in its group goes with it.
    killGroup(child, 'SIGKILL');
    return exited;
  };
  return { name, label, child, exited, stop, kill };
}

export function killGroup(child: ChildProcess, signal: NodeJS.Signals) {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is already gone.
  }
}
