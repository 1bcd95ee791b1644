import { ForbiddenError } from '@licensestore/shared';
import type { RequestHandler } from 'express';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const hostOf = (origin: string): string | null => {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
};

/**
 * Refuses state-changing requests a browser sent on behalf of another site. The session cookie is
 * SameSite=Lax already; this covers sibling subdomains and old browsers. Requests without Origin or
 * Sec-Fetch-Site (curl, server-to-server webhooks) carry no ambient browser credentials and pass.
 */
export function refuseCrossSite(publicUrl: string | undefined): RequestHandler {
  const ownOrigin = publicUrl ? new URL(publicUrl).origin : null;
  return (req, _res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const origin = req.get('origin');
    const sameOrigin =
      origin === undefined || (ownOrigin ? origin === ownOrigin : hostOf(origin) === (req.get('host') ?? ''));
    const crossSite = !sameOrigin || req.get('sec-fetch-site') === 'cross-site';
    next(crossSite ? new ForbiddenError('Cross-site request refused') : undefined);
  };
}
