import type { Express } from 'express';
import { beforeEveryHead } from './response-head.js';

const PAYPAL = ['https://www.paypal.com', 'https://*.paypal.com', 'https://*.paypalobjects.com'];

/** A header and its value, as sent. */
type Headers = ReadonlyArray<readonly [name: string, value: string]>;

const csp = (directives: Record<string, string[]>) =>
  Object.entries(directives)
    .map(([name, sources]) => [name, ...sources].join(' '))
    .join(';');

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

/** What documents and data alike carry: no sniffing, no framing, same-origin referrers and resources, https kept. */
const everyAnswersHeaders = (options: { https: boolean }): Headers => [
  ['Cross-Origin-Resource-Policy', 'same-origin'],
  // no-referrer makes Chromium send `Origin: null` with a POST to its own site (a form, or the web client's fetch),
  // which the cross-site guard must refuse. same-origin still tells other sites nothing.
  ['Referrer-Policy', 'same-origin'],
  ...(options.https ? [['Strict-Transport-Security', 'max-age=31536000; includeSubDomains'] as const] : []),
  ['X-Content-Type-Options', 'nosniff'],
  ['X-Frame-Options', 'DENY'],
];

/**
 * What a browser may render or run (pages, images, scripts, and any answer whose type is not data): helmet's
 * defaults, written out, plus what the PayPal JS SDK needs: its script, its iframes (buttons, card fields), its API
 * calls and its images. PayPal's checkout popup talks back to this window through `opener`, which COOP `same-origin`
 * would cut, hence `same-origin-allow-popups`. The web client's own inline script (the pre-paint theme switch) is
 * allowed by its hash, never by 'unsafe-inline'.
 */
function documentHeaders(options: { https: boolean; scriptHashes: string[] }): Headers {
  const policy = csp({
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    'font-src': ["'self'", 'https:', 'data:'],
    'form-action': ["'self'"],
    // No page of ours is meant to be framed, by other sites or by itself (clickjacking).
    'frame-ancestors': ["'none'"],
    // Product images are files of this site: image URLs of other sites, https ones included, are refused when a
    // product is saved, so no page needs `https:` here and no shopper's browser is sent to hosts the store does not run.
    'img-src': ["'self'", 'data:', 'blob:', ...PAYPAL],
    'object-src': ["'none'"],
    'script-src': ["'self'", ...options.scriptHashes, ...PAYPAL],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", 'https:', "'unsafe-inline'"],
    'frame-src': ["'self'", ...PAYPAL],
    'connect-src': ["'self'", ...PAYPAL],
    // Plain-HTTP installs (localhost, a LAN address) would otherwise have every asset upgraded to https.
    ...(options.https ? { 'upgrade-insecure-requests': [] } : {}),
  });
  return [
    ['Content-Security-Policy', policy],
    ['Cross-Origin-Opener-Policy', 'same-origin-allow-popups'],
    ['Origin-Agent-Cluster', '?1'],
    ['X-DNS-Prefetch-Control', 'off'],
    ['X-Download-Options', 'noopen'],
    ['X-Permitted-Cross-Domain-Policies', 'none'],
    ['X-XSS-Protection', '0'],
    ['Permissions-Policy', PERMISSIONS_POLICY],
    ...everyAnswersHeaders(options),
  ];
}

/**
 * What a browser only reads as data (JSON, event streams): what OWASP's REST security cheat sheet asks of an API. A
 * CSP that allows nothing, should such an answer ever be opened as a document, and no framing or sniffing; the
 * policies that only documents use (COOP, Permissions-Policy, …) mean nothing here, and would cost every API answer
 * a kilobyte of headers.
 */
const dataHeaders = (options: { https: boolean }): Headers => [
  ['Content-Security-Policy', "default-src 'none';frame-ancestors 'none'"],
  ...everyAnswersHeaders(options),
];

const DATA_TYPE = /^(?:application\/(?:[\w.-]+\+)?json|text\/event-stream)\s*(?:;|$)/i;

/**
 * Gives every answer of `app` its security headers, chosen by its Content-Type once its head is written (an answer
 * without one, a 304 say, gets the document set: a browser may merge a 304's headers into the page it keeps).
 * Headers a route set itself are kept.
 */
export function sendSecurityHeaders(app: Express, options: { https: boolean; scriptHashes: string[] }): void {
  const forDocuments = documentHeaders(options);
  const forData = dataHeaders(options);
  beforeEveryHead(app, (res) => {
    const type = res.getHeader('content-type');
    const headers = typeof type === 'string' && DATA_TYPE.test(type) ? forData : forDocuments;
    for (const [name, value] of headers) if (!res.hasHeader(name)) res.setHeader(name, value);
  });
}
