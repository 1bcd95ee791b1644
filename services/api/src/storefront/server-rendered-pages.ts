import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RenderSite, StorefrontRenderer } from '@licensestore/contract/server-rendering';
import type { Logger } from '@licensestore/platform/logging';
import { type CachedAnswer, cachedAnswer } from '../http/cached-answer.js';

/** Where `npm run build` puts the web client's server entry, inside the client's build. */
const SERVER_ENTRY = join('server', 'entry-server.js');

export interface ServerRenderedPagesDeps {
  /** The built web client (web/dist): its server entry, when it has one, draws the pages. */
  dist: string;
  /** The built index.html, which every page is drawn into. */
  shell: Buffer;
  site: RenderSite;
  /** Keeps a page until the catalogue changes (the catalogue cache, which drops it on the products' next change). */
  keep: (
    key: string,
    load: () => Promise<CachedAnswer | null>,
  ) => Promise<CachedAnswer | null> | CachedAnswer;
  logger: Logger;
}

/**
 * The storefront's public pages as HTML with their content, drawn on request by the web client's server entry and
 * kept until the catalogue changes (ADR 044): by URL, or null for a page the browser alone draws (the caller sends
 * the shell). A URL with a query (a category chosen without JavaScript) is drawn every time and not kept, so what is
 * kept stays bounded by the catalogue whatever URLs are asked for. A page that fails to draw is logged and left to
 * the browser.
 */
export function serverRenderedPages({
  dist,
  shell,
  site,
  keep,
  logger,
}: ServerRenderedPagesDeps): (url: string) => Promise<CachedAnswer | null> {
  const entry = join(dist, SERVER_ENTRY);
  if (!existsSync(entry)) return async () => null;
  let loading: Promise<StorefrontRenderer> | undefined;
  const template = shell.toString('utf8');

  // Loaded once, on the first page asked for; a load that failed is forgotten, so the next page tries again.
  const renderer = (): Promise<StorefrontRenderer> => {
    loading ??= import(pathToFileURL(entry).href).then(
      (module: { renderer: StorefrontRenderer }) => module.renderer,
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };

  const draw = async (url: string): Promise<CachedAnswer | null> => {
    try {
      const page = await (await renderer()).renderPage(template, url, site);
      return page && cachedAnswer(Buffer.from(page.html), 'text/html; charset=utf-8');
    } catch (error) {
      logger.error(
        { err: error, url },
        'a storefront page could not be drawn on the server; the browser draws it',
      );
      return null;
    }
  };
  return async (url) => (url.includes('?') ? draw(url) : keep(`page:${url}`, () => draw(url)));
}
