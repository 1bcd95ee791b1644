// `npm run build` in web/: the client (vite's production build, precompressed) and, inside it under server/, the
// server entry the api draws the storefront's public pages with. Also what the benches and browser tests build.
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'vite';

const WEB = fileURLToPath(new URL('..', import.meta.url));

export async function buildWebClient(outDir: string): Promise<void> {
  const common = { root: WEB, configFile: join(WEB, 'vite.config.ts'), logLevel: 'warn' as const };
  await build({ ...common, build: { outDir, emptyOutDir: true } });
  await build({
    ...common,
    build: { ssr: 'src/entry-server.tsx', outDir: join(outDir, 'server'), emptyOutDir: true },
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await buildWebClient(resolve(process.argv[2] ?? join(WEB, 'dist')));
}
