// `npm run build`: every role compiled to plain JavaScript in dist/, laid out as the repository is, so the image runs
// `node services/api/src/main.js` with no TypeScript toolchain. Each file is transpiled on its own (esbuild's
// transform; the sources are written for it: verbatimModuleSyntax, isolatedModules, `.js` import specifiers), not
// bundled: a bundle would give every module the bundle's import.meta.url, which would break the paths modules read
// beside themselves (the api's public/, the emulator's SDK) and the "am I the entry" check of each role's main.
// Type checking is `npm run typecheck`'s job. The web client is built by vite into web/dist and copied.
import { spawnSync } from 'node:child_process';
import { cp, mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { transform } from 'esbuild';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Where `npm run build` writes. Elsewhere only under the repository, whose node_modules the output resolves from. */
const DIST = join(ROOT, 'dist');

/** The workspaces a role needs at run time, each with the folders of data its code reads beside itself. */
const PACKAGES: Array<{ dir: string; assets: string[] }> = [
  { dir: 'domain', assets: [] },
  { dir: 'platform', assets: [] },
  { dir: 'contract', assets: [] },
  { dir: 'services/api', assets: ['public'] },
  { dir: 'services/paypal-sandbox', assets: ['sdk'] },
  { dir: 'projections', assets: [] },
  { dir: 'workers', assets: [] },
];
/** `migrate` (the deployment's migrations and first secrets) and what it imports. */
const SCRIPT_SOURCES = ['scripts/migrate.ts', 'scripts/lib', 'scripts/stack'];

const isSource = (path: string) =>
  path.endsWith('.ts') && !path.endsWith('.d.ts') && !/\.(spec|test)\.ts$/.test(path);

async function* sourcesUnder(path: string): AsyncGenerator<string> {
  const entries = await readdir(path, { withFileTypes: true }).catch(() => null);
  if (entries === null) {
    if (isSource(path)) yield path;
    return;
  }
  for (const entry of entries) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) {
      // Tests and their fixtures are not part of any role.
      if (entry.name === 'test' || entry.name === 'testing' || entry.name === 'node_modules') continue;
      yield* sourcesUnder(child);
    } else if (isSource(child)) {
      yield child;
    }
  }
}

async function compile(source: string, out: string): Promise<void> {
  const { code } = await transform(await readFile(source, 'utf8'), {
    loader: 'ts',
    format: 'esm',
    target: 'node20',
    sourcefile: relative(ROOT, source),
  });
  const file = join(out, relative(ROOT, source)).replace(/\.ts$/, '.js');
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, code);
}

/** A workspace's package.json as the built package: its exports point at the compiled `.js` files. */
async function writePackageJson(dir: string, out: string): Promise<void> {
  const manifest = JSON.parse(await readFile(join(ROOT, dir, 'package.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  const toJs = (value: unknown): unknown =>
    typeof value === 'string'
      ? value.replace(/\.ts$/, '.js')
      : value && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, toJs(inner)]))
        : value;
  const { devDependencies: _dev, scripts: _scripts, ...runtime } = manifest;
  await writeFile(
    join(out, dir, 'package.json'),
    `${JSON.stringify({ ...runtime, exports: toJs(manifest.exports) }, null, 2)}\n`,
  );
}

function buildWeb(): void {
  const run = spawnSync('npm', ['run', 'build', '--workspace', 'web'], { cwd: ROOT, stdio: 'inherit' });
  if (run.status !== 0) throw new Error('the web build failed');
}

export async function build({ out = DIST, web = true }: { out?: string; web?: boolean } = {}): Promise<{
  files: number;
}> {
  await rm(out, { recursive: true, force: true });
  const sources: string[] = [];
  for (const root of [...PACKAGES.map((pkg) => join(pkg.dir, 'src')), ...SCRIPT_SOURCES]) {
    for await (const source of sourcesUnder(join(ROOT, root))) sources.push(source);
  }
  await Promise.all(sources.map((source) => compile(source, out)));
  for (const pkg of PACKAGES) {
    await writePackageJson(pkg.dir, out);
    for (const asset of pkg.assets)
      await cp(join(ROOT, pkg.dir, asset), join(out, pkg.dir, asset), { recursive: true });
    // The workspace link npm makes in node_modules, so `@licensestore/domain` (and each other workspace) resolves to the built package here
    // while third-party packages resolve from the node_modules above.
    const name = `@licensestore/${pkg.dir.split('/').at(-1)}`;
    const link = join(out, 'node_modules', name);
    await mkdir(dirname(link), { recursive: true });
    await symlink(relative(dirname(link), join(out, pkg.dir)), link);
  }
  const root = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { engines: unknown };
  await writeFile(
    join(out, 'package.json'),
    `${JSON.stringify({ name: 'licensestore', private: true, type: 'module', engines: root.engines }, null, 2)}\n`,
  );
  if (web) {
    buildWeb();
    await cp(join(ROOT, 'web/dist'), join(out, 'web/dist'), { recursive: true });
  }
  return { files: sources.length };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = performance.now();
  const { files } = await build({ web: !process.argv.includes('--no-web') });
  console.log(
    `build: ${files} files compiled into ${relative(process.cwd(), DIST) || DIST} in ${Math.round(performance.now() - started)} ms`,
  );
}
