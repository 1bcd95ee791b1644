import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { NotFoundError, UnauthenticatedError } from '@licensestore/domain';
import type { RequestHandler } from 'express';

const MAPPED_V4 = '::ffff:';

/** 127.0.0.0/8, ::1, and 127.x as an IPv4-mapped IPv6 address (how a dual-stack socket reports it), as Node writes them. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  if (address === '::1') return true;
  const v4 = address.toLowerCase().startsWith(MAPPED_V4) ? address.slice(MAPPED_V4.length) : address;
  return isIP(v4) === 4 && v4.startsWith('127.');
}

// Digests have one length whatever was sent, so the comparison takes the same time for any wrong token.
const digest = (text: string) => createHash('sha256').update(text).digest();

const bearerToken = (authorization: string | undefined) => /^Bearer (\S+)$/i.exec(authorization ?? '')?.[1];

/**
 * Who may read /metrics. With a token: whoever sends it as a bearer token (401 otherwise). Without one: callers on
 * this machine's loopback, judged by the socket's own peer address (never X-Forwarded-For, which anyone can send);
 * a request that came through a proxy says so in a forwarding header and is refused too, since the proxy on this
 * machine would otherwise lend every outside caller its loopback address. Refusals outside are 404: the endpoint
 * is not advertised.
 */
export function metricsAccess(token: string | undefined): RequestHandler {
  const expected = token === undefined ? undefined : digest(token);
  return (req, res, next) => {
    if (expected) {
      const given = bearerToken(req.get('authorization'));
      if (given === undefined || !timingSafeEqual(digest(given), expected)) {
        res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
        throw new UnauthenticatedError('A bearer token is required for /metrics');
      }
    } else if (
      !isLoopbackAddress(req.socket.remoteAddress) ||
      req.get('x-forwarded-for') ||
      req.get('forwarded')
    ) {
      throw new NotFoundError('Not found');
    }
    next();
  };
}
