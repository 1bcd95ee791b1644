import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { inlineStylesheet } from './build/inline-stylesheet.js';
import { precompress } from './build/precompress.js';

const API = 'http://localhost:5000';

/**
 * Writes dist/csp.json with the hashes of the inline scripts in the built index.html (the pre-paint theme script),
 * so the server can allow exactly those in its Content-Security-Policy instead of 'unsafe-inline'.
 */
function inlineScriptHashes(): Plugin {
  return {
    name: 'licensestore:inline-script-hashes',
    apply: (_config, { command, isSsrBuild }) => command === 'build' && !isSsrBuild,
    enforce: 'post',
    async generateBundle(_options, bundle) {
      const html = bundle['index.html'];
      if (html?.type !== 'asset') throw new Error('index.html is missing from the bundle');
      const source = typeof html.source === 'string' ? html.source : new TextDecoder().decode(html.source);
      const hashes: string[] = [];
      for (const match of source.matchAll(/<script>([\s\S]*?)<\/script>/g)) {
        const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(match[1]));
        hashes.push(`'sha256-${btoa(String.fromCharCode(...new Uint8Array(digest)))}'`);
      }
      this.emitFile({
        type: 'asset',
        fileName: 'csp.json',
        source: `${JSON.stringify({ 'script-src': hashes }, null, 2)}\n`,
      });
    },
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), tailwindcss(), inlineStylesheet(), inlineScriptHashes(), precompress()],
  resolve: {
    tsconfigPaths: true,
    alias: [
      {
        find: /^zod$/,
        replacement: fileURLToPath(new URL('./src/lib/zod-without-eval.ts', import.meta.url)),
      },
    ],
  },
  server: {
    proxy: {
      '/api': API,
      '/paypal': API,
      '/images': API,
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // In the browser, everything a page load needs before it runs (the public pages' own code with it) in one file,
    // as one request: over HTTP/1.1 every further file opens a connection of its own and starts slow, while the
    // page's pictures want those connections too. The server entry is read from disk and keeps Rolldown's chunks.
    rolldownOptions: isSsrBuild
      ? {}
      : { output: { codeSplitting: { groups: [{ name: 'index', tags: ['$initial'] }] } } },
  },
  // The server entry carries its dependencies: the api loads it from wherever the build was put (WEB_DIST), with no
  // node_modules beside it.
  ssr: { noExternal: true },
}));
