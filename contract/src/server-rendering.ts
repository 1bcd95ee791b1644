/**
 * What the built web client's server entry (web/dist/server/entry-server.js) offers the api, which loads it when the
 * build has one: the storefront's public pages drawn as HTML from the catalogue, for the browser's React to take over.
 */
export interface StorefrontRenderer {
  /**
   * The page at `url` (path and query) drawn into `shell`, the built index.html, or null when that page is drawn in
   * the browser only (the cart, checkout, account, back office) or its data is missing (an unknown product).
   */
  renderPage: (shell: string, url: string, site: RenderSite) => Promise<RenderedPage | null>;
}

export interface RenderSite {
  /** The site's origin (PUBLIC_URL's), for the absolute URLs of structured data. */
  origin: string;
  /**
   * The body the store's GET at `path` (an `/api/...` read of the catalogue or testimonials) answers, as parsed JSON,
   * or null when it answers 404.
   */
  read: (path: string) => Promise<unknown>;
}

export interface RenderedPage {
  html: string;
}
