import { ValidationError } from '@licensestore/domain';

const REFUSED =
  'imageUrl: must be an image on this site, a path such as /objects/uploads/… (upload the image to get one)';

/**
 * Product images are files of this site: the demo art under /images and the uploads under /objects/uploads. The
 * URL an admin gives is resolved against the site's own origin (PUBLIC_URL), never the request's, and kept only
 * when it stays on it, as a path (with its query): `/x.png`, `x.png` and `<origin>/x.png` all store `/x.png`.
 * Images of other sites, https ones included, are refused, and the page policy loads none (img-src 'self'): a
 * shopper's browser then asks no host the store does not run (which would learn every visitor), an image cannot
 * change after the admin saw it, and img-src is no way out for whatever a page might leak. A backslash is refused
 * before resolving: browsers read `/\evil.example` as `//evil.example`, another site. Control characters never get
 * here (the field is storable text).
 */
export function siteImagePath(imageUrl: string, siteOrigin: string): string {
  if (imageUrl.includes('\\') || !URL.canParse(imageUrl, siteOrigin)) throw new ValidationError(REFUSED);
  const resolved = new URL(imageUrl, siteOrigin);
  if (resolved.origin !== siteOrigin) throw new ValidationError(REFUSED);
  return `${resolved.pathname}${resolved.search}`;
}
