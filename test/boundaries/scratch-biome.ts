// The repository's Biome configuration run on a scratch tree: what the rules say about files written for the purpose.
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const BIOME = join(ROOT, 'node_modules/.bin/biome');

export interface Diagnostic {
  category: string;
  message: string;
  location: { path: string };
}

/** Biome's JSON report of one rule; it exits non-zero when it found errors, which is what some cases are for. */
export const lint = (cwd: string, rule: string) =>
  new Promise<Diagnostic[]>((resolvePromise, reject) => {
    execFile(BIOME, ['lint', `--only=${rule}`, '--reporter=json', '.'], { cwd }, (error, stdout) => {
      try {
        resolvePromise((JSON.parse(stdout) as { diagnostics: Diagnostic[] }).diagnostics);
      } catch {
        reject(error ?? new Error(`biome said: ${stdout}`));
      }
    });
  });

/** The configuration as the repository has it, minus what ties it to the checkout (its git ignores, its schema). */
export async function copyConfig(from: string, to: string) {
  const { $schema: _schema, ...config } = JSON.parse(await readFile(join(ROOT, from), 'utf8'));
  if (config.vcs) config.vcs = { enabled: false };
  await mkdir(dirname(to), { recursive: true });
  await writeFile(to, JSON.stringify(config));
}
