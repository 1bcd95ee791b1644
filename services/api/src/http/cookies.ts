import type { Response } from 'express';

/**
 * Every value of the cookie `name` in a Cookie header, in the order sent. A browser sends one per path the request
 * matches, so a cookie scoped to a path may come beside another of the same name. The API needs no more than
 * this, so no cookie-parser.
 */
export function cookieValues(header: string | undefined, name: string): string[] {
  if (!header) return [];
  return header.split(';').flatMap((part) => {
    const separator = part.indexOf('=');
    return separator !== -1 && part.slice(0, separator).trim() === name
      ? [part.slice(separator + 1).trim()]
      : [];
  });
}

/**
 * Sets a capability cookie: a token only this site's own requests carry (HttpOnly, SameSite=Strict, Secure under
 * https), sent only on the routes under `path`, so each one opens its own order or checkout and nothing else.
 */
export function setCapabilityCookie(
  res: Response,
  cookie: { name: string; token: string; path: string; maxAgeMs: number },
  secure: boolean,
): void {
  res.cookie(cookie.name, cookie.token, {
    httpOnly: true,
    sameSite: 'strict',
    secure,
    path: cookie.path,
    maxAge: cookie.maxAgeMs,
  });
}
