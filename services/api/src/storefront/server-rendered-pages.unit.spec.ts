import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '@licensestore/platform/logging';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serverRenderedPages } from './server-rendered-pages.js';

/** A server entry that draws every page as its URL in a paragraph. */
const ENTRY = `export const renderer = {
  renderPage: async (shell, url) => ({ html: shell.replace('<div id="root"></div>', '<div id="root"><p>' + url + '</p></div>') }),
};
`;
const SHELL = Buffer.from('<html><body><div id="root"></div></body></html>');

describe('serverRenderedPages', () => {
  let dist: string;
  let entry: string;

  beforeEach(async () => {
    dist = await mkdtemp(join(tmpdir(), 'web-dist-'));
    entry = join(dist, 'server', 'entry-server.js');
    await mkdir(join(dist, 'server'));
    await writeFile(entry, ENTRY);
  });
  afterEach(() => rm(dist, { recursive: true, force: true }));

  const pages = () =>
    serverRenderedPages({
      dist,
      shell: SHELL,
      site: { origin: 'https://shop.example', read: async () => null },
      keep: (_key, load) => load(),
      logger: silentLogger,
    });

  it('draws a page with the server entry of the build', async () => {
    const page = await pages()('/products');
    expect(page?.body.toString()).toContain('<p>/products</p>');
  });

  it('loads the server entry again after a failed load, instead of failing every page from then on', async () => {
    const draw = pages();
    // Away while the first page is asked for (a build being replaced, say): that page is left to the browser.
    await rename(entry, `${entry}.away`);
    expect(await draw('/')).toBeNull();
    await rename(`${entry}.away`, entry);
    const page = await draw('/');
    expect(page, 'the page, not the shell').not.toBeNull();
    expect(page?.body.toString()).toContain('<p>/</p>');
  });
});
