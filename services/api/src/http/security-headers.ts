import helmet from 'helmet';

const PAYPAL = ['https://www.paypal.com', 'https://*.paypal.com', 'https://*.paypalobjects.com'];

/**
 * helmet's defaults plus what the PayPal JS SDK needs: its script, its iframes (buttons, card fields),
 * its API calls and its images. PayPal's checkout popup talks back to this window through `opener`,
 * which COOP `same-origin` would cut, hence `same-origin-allow-popups`. The web client's own inline script
 * (the pre-paint theme switch) is allowed by its hash, never by 'unsafe-inline'.
 */
export function securityHeaders(options: { https: boolean; scriptHashes: string[] }) {
  return helmet({
    contentSecurityPolicy: {
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'", ...options.scriptHashes, ...PAYPAL],
        'frame-src': ["'self'", ...PAYPAL],
        'connect-src': ["'self'", ...PAYPAL],
        'img-src': ["'self'", 'data:', 'blob:', ...PAYPAL],
        // Plain-HTTP installs (localhost, a LAN address) would otherwise have every asset upgraded to https.
        'upgrade-insecure-requests': options.https ? [] : null,
      },
    },
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    strictTransportSecurity: options.https,
  });
}
