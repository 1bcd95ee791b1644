let originOnServer = '';

/** The site's origin: the page's in a browser; on the server, the one the page is rendered for (its public URL). */
export const siteOrigin = (): string =>
  typeof window === 'undefined' ? originOnServer : window.location.origin;

/** Set by the server entry before it renders: one store, one origin. */
export function setOriginOnServer(origin: string): void {
  originOnServer = origin;
}
