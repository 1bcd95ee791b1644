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
