import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The hash of the one inline script the built client's csp.json lists (the pre-paint theme switch). */
export const THEME_SCRIPT_HASH = "'sha256-aLgRZDPezBuwzkc7r+CAyxhrIqZV8oH3KCIUJCUB7us='";

/** A built web client in a fresh temporary folder: index.html, one hashed asset and csp.json. The caller removes it. */
export async function writeWebDist(): Promise<string> {
  const dist = await mkdtemp(join(tmpdir(), 'web-dist-'));
  await mkdir(join(dist, 'assets'));
  await writeFile(join(dist, 'index.html'), '<!doctype html><title>LicenseStore</title>');
  await writeFile(join(dist, 'assets', 'app-1234.js'), 'console.log(1)');
  await writeFile(join(dist, 'csp.json'), JSON.stringify({ 'script-src': [THEME_SCRIPT_HASH] }));
  return dist;
}
