import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** Newest modification time of a file under `path` (a file or a directory tree). */
function newestChange(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, entry) => Math.max(newest, newestChange(join(path, entry))), 0);
}

const WEB_SOURCES = ['web/src', 'web/public', 'web/index.html', 'web/vite.config.ts', 'web/package.json'];

/**
 * Builds web/dist when it is missing or older than the web client's sources (a pull brought new code), unless
 * SKIP_WEB_BUILD=1 or WEB_DIST names a build made elsewhere. `log` is the supervisor's, `out` takes the build's lines.
 */
export async function buildWebIfStale(
  root: string,
  log: (line: string) => void,
  out: (line: string) => void,
): Promise<void> {
  if (process.env.SKIP_WEB_BUILD === '1' || process.env.WEB_DIST) return;
  const built = join(root, 'web/dist/index.html');
  const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0;
  if (builtAt > Math.max(...WEB_SOURCES.map((source) => newestChange(join(root, source))))) return;
  const manifest = join(root, 'web/package.json');
  if (!existsSync(manifest)) return;
  const { scripts } = JSON.parse(readFileSync(manifest, 'utf8')) as { scripts?: Record<string, string> };
  if (!scripts?.build) return;
  log(
    builtAt === 0
      ? 'building the web client (web/dist is missing)'
      : 'rebuilding the web client (its sources changed)',
  );
  const child = spawn('npm', ['run', 'build', '--workspace', 'web'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', out);
  }
  const code = await new Promise<number | null>((done) => child.once('exit', done));
  if (code !== 0) log(`the web build failed (exit ${code}); serving the API without the web client`);
}
