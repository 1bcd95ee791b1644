import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';
import helmet, { type HelmetOptions } from 'helmet';
import { beforeEveryHead } from './response-head.js';

const PAYPAL = ['https://www.paypal.com', 'https://*.paypal.com', 'https://*.paypalobjects.com'];

/** A header and its value, as sent. */
type Headers = ReadonlyArray<readonly [name: string, value: string]>;

/**
 * The headers helmet sends under `policy`, recorded once at start: an answer's Content-Type, which picks its set,
 * is only known when its head is written, long after a middleware would have run.
 */
function helmetHeaders(policy: HelmetOptions): Headers {
  const headers: Array<[string, string]> = [];
  const recorder = { setHeader: (name: string, value: string) => headers.push([name, value]) };
  helmet(policy)({} as IncomingMessage, recorder as unknown as ServerResponse, (error) => {
    if (error) throw error;
  });
  return headers;
}

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
const everyAnswersPolicy = (options: { https: boolean }) =>
  ({
    // no-referrer makes Chromium send `Origin: null` with a POST to its own site (a form, or the web client's fetch),
    // which the cross-site guard must refuse. same-origin still tells other sites nothing.
    referrerPolicy: { policy: 'same-origin' },
    // helmet's: a year, subdomains included.
    strictTransportSecurity: options.https,
    xFrameOptions: { action: 'deny' },
    // Express's own header is off app-wide.
    xPoweredBy: false,
  }) satisfies HelmetOptions;

/**
 * What a browser may render or run (pages, images, scripts, and any answer whose type is not data): helmet's
 * defaults plus what the PayPal JS SDK needs: its script, its iframes (buttons, card fields), its API calls and its
 * images. PayPal's checkout popup talks back to this window through `opener`, which COOP `same-origin` would cut,
 * hence `same-origin-allow-popups`. The web client's own inline script (the pre-paint theme switch) is allowed by
 * its hash, never by 'unsafe-inline'.
 */
function documentHeaders(options: { https: boolean; scriptHashes: string[] }): Headers {
  return [
    ...helmetHeaders({
      contentSecurityPolicy: {
        directives: {
          // No page of ours is meant to be framed, by other sites or by itself (clickjacking).
          'frame-ancestors': ["'none'"],
          // Product images are files of this site: image URLs of other sites, https ones included, are refused when a
          // product is saved, so no page needs `https:` here and no shopper's browser is sent to hosts the store does not run.
          'img-src': ["'self'", 'data:', 'blob:', ...PAYPAL],
          'script-src': ["'self'", ...options.scriptHashes, ...PAYPAL],
          'frame-src': ["'self'", ...PAYPAL],
          'connect-src': ["'self'", ...PAYPAL],
          // Plain-HTTP installs (localhost, a LAN address) would otherwise have every asset upgraded to https.
          'upgrade-insecure-requests': options.https ? [] : null,
        },
      },
      crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
      ...everyAnswersPolicy(options),
    }),
    ['Permissions-Policy', PERMISSIONS_POLICY],
  ];
}

/**
 * What a browser only reads as data (JSON, event streams): what OWASP's REST security cheat sheet asks of an API. A
 * CSP that allows nothing, should such an answer ever be opened as a document, and no framing or sniffing; the
 * policies that only documents use (COOP, Permissions-Policy, …) mean nothing here, and would cost every API answer
 * a kilobyte of headers.
 */
const dataHeaders = (options: { https: boolean }): Headers =>
  helmetHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] },
    },
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
    ...everyAnswersPolicy(options),
  });

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
