import { ForbiddenError } from '@licensestore/domain';
import type { Request, RequestHandler } from 'express';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export interface SiteOrigin {
  /** PUBLIC_URL, or the local default when it is unset. */
  publicUrl: string;
  /** PUBLIC_URL was left unset: a local run, reached through any loopback name and whatever port a test picked. */
  local: boolean;
}

/**
 * Whether an Origin header names this site: scheme, host and port equal to PUBLIC_URL's, never compared with the
 * request's own Host header (which the client writes). A local run without PUBLIC_URL (production refuses to start
 * without it) also takes any loopback origin: nothing but this machine can serve one.
 */
export function isSiteOrigin(site: SiteOrigin): (origin: string) => boolean {
  const own = new URL(site.publicUrl).origin;
  return (origin) => {
    if (origin === own) return true;
    if (!site.local) return false;
    try {
      const url = new URL(origin);
      return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname) && url.origin === origin;
    } catch {
      return false;
    }
  };
}

/**
 * Refuses state-changing requests a browser sent on behalf of another site. The session cookie is
 * SameSite=Lax already; this covers sibling subdomains and old browsers. Requests without Origin or
 * Sec-Fetch-Site (curl, server-to-server webhooks) carry no ambient browser credentials and pass.
 */
export function refuseCrossSite(site: SiteOrigin): RequestHandler {
  const ownOrigin = isSiteOrigin(site);
  return (req, _res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const origin = req.get('origin');
    const crossSite =
      (origin !== undefined && !ownOrigin(origin)) || req.get('sec-fetch-site') === 'cross-site';
    next(crossSite ? new ForbiddenError('Cross-site request refused') : undefined);
  };
}

/**
 * A GET that changes state (signing in or out by a link) acts only on a navigation the visitor made themselves:
 * typed, bookmarked or opened from a mail program (`none`), or a link on this site (`same-origin`). A link on any
 * other site, or a browser too old to say, gets a page whose button does it.
 */
export const isOwnNavigation = (req: Request): boolean => {
  const site = req.get('sec-fetch-site');
  return site === 'same-origin' || site === 'none';
};
