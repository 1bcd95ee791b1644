import type { RequestHandler } from 'express';
import helmet from 'helmet';

const PAYPAL = ['https://www.paypal.com', 'https://*.paypal.com', 'https://*.paypalobjects.com'];

/**
 * Powerful features no page of the store uses are off for it and anything it embeds; PayPal's frames may still
 * ask for the Payment Request API (wallets). The clipboard stays allowed: keys are copied with a click.
 */
const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'camera=()',
  'geolocation=()',
  'gyroscope=()',
  'magnetometer=()',
  'microphone=()',
  'usb=()',
  'payment=(self "https://www.paypal.com")',
].join(', ');

/**
 * helmet's defaults plus what the PayPal JS SDK needs: its script, its iframes (buttons, card fields),
 * its API calls and its images. PayPal's checkout popup talks back to this window through `opener`,
 * which COOP `same-origin` would cut, hence `same-origin-allow-popups`. The web client's own inline script
 * (the pre-paint theme switch) is allowed by its hash, never by 'unsafe-inline'.
 */
export function securityHeaders(options: { https: boolean; scriptHashes: string[] }): RequestHandler[] {
  const permissionsPolicy: RequestHandler = (_req, res, next) => {
    res.setHeader('Permissions-Policy', PERMISSIONS_POLICY);
    next();
  };
  const headers = helmet({
    contentSecurityPolicy: {
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'", ...options.scriptHashes, ...PAYPAL],
        'frame-src': ["'self'", ...PAYPAL],
        'connect-src': ["'self'", ...PAYPAL],
        'img-src': ["'self'", 'data:', 'blob:', ...PAYPAL],
        // No page of ours is meant to be framed, by other sites or by itself (clickjacking).
        'frame-ancestors': ["'none'"],
        // Plain-HTTP installs (localhost, a LAN address) would otherwise have every asset upgraded to https.
        'upgrade-insecure-requests': options.https ? [] : null,
      },
    },
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    // helmet's no-referrer makes Chromium send `Origin: null` with a form posted to its own site (the sign-in page),
    // which the cross-site guard must refuse. same-origin still tells other sites nothing.
    referrerPolicy: { policy: 'same-origin' },
    strictTransportSecurity: options.https,
    xFrameOptions: { action: 'deny' },
  });
  // EXPERIMENT: harvest helmet's output once, then set it from a table.
  const harvested: Array<[string, string]> = [];
  const fake = { setHeader: (n: string, v: string) => harvested.push([n, v]), removeHeader: () => {} };
  headers({} as never, fake as never, () => {});
  harvested.push(['Permissions-Policy', PERMISSIONS_POLICY]);
  void permissionsPolicy;
  return [
    (_req, res, next) => {
      for (const [n, v] of harvested) res.setHeader(n, v);
      next();
    },
  ];
}
