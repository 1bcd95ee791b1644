import type { RenderedPage, RenderSite, StorefrontRenderer } from '@licensestore/contract/server-rendering';
import { dehydrate } from '@tanstack/react-query';
import { prerenderToNodeStream } from 'react-dom/static';
import { Router } from 'wouter';
import { App } from './app/app';
import { serverRenderedQueries } from './app/server-rendered';
import { type PageHead, PageHeadContext } from './components/seo/page-head';
import { createQueryClient } from './lib/api';
import { SERVER_STATE_ELEMENT_ID } from './lib/server-state';
import { setOriginOnServer } from './lib/site-origin';

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** `<` escaped, so that no text from a product can end the script element that carries the state. */
const scriptSafeJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

async function text(stream: AsyncIterable<Uint8Array | string>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

/** The shell's defaults replaced by the page's own head: title, description, their link-preview copies, robots. */
function withHead(shell: string, head: PageHead): string {
  const description = escapeHtml(head.description);
  const title = escapeHtml(head.title);
  return shell
    .replace(/<title>[^<]*<\/title>/, `<title>${title}</title>`)
    .replace(
      /<meta name="description" content="[^"]*" \/>/,
      `<meta name="description" content="${description}" />`,
    )
    .replace(
      '</head>',
      `<meta property="og:title" content="${title}" />\n<meta property="og:description" content="${description}" />\n` +
        `${head.noindex ? '<meta name="robots" content="noindex, nofollow" />\n' : ''}</head>`,
    );
}

async function renderPage(shell: string, url: string, site: RenderSite): Promise<RenderedPage | null> {
  const path = new URL(url, site.origin).pathname;
  const queries = serverRenderedQueries(path);
  if (!queries) return null;
  const client = createQueryClient();
  for (const queryKey of queries) {
    const data = await site.read(queryKey.join('/'));
    // A product that does not exist: the browser draws its not-found page, as for any page it alone draws.
    if (data === null) return null;
    client.setQueryData(queryKey, data);
  }
  setOriginOnServer(site.origin);
  let head: PageHead | null = null;
  const { prelude } = await prerenderToNodeStream(
    <PageHeadContext.Provider value={(reported) => (head = reported)}>
      <Router ssrPath={url}>
        <App client={client} />
      </Router>
    </PageHeadContext.Provider>,
    // Every boundary in place: a large one would otherwise be sent apart with an inline script to move it in, which
    // the CSP forbids and a browser without JavaScript never runs.
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  const body = await text(prelude);
  const state = `<script type="application/json" id="${SERVER_STATE_ELEMENT_ID}">${scriptSafeJson(dehydrate(client))}</script>`;
  const page = shell.replace('<div id="root"></div>', `<div id="root">${body}</div>${state}`);
  return { html: head ? withHead(page, head) : page };
}

export const renderer: StorefrontRenderer = { renderPage };
