import { randomUUID } from 'node:crypto';
import { customerEmailKey } from '@licensestore/shared';
import type { Logger } from '@licensestore/shared/logging';
import type { Mailer } from '@licensestore/shared/mail';
import { storableText } from '@licensestore/shared/text';
import express, { type CookieOptions, type Request, type Response, Router } from 'express';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { sessionToken } from '../auth/guards.js';
import { SESSION_COOKIE, type SessionStore } from '../auth/sessions.js';
import { checkInboxPage, linkExpiredPage, sendFailedPage, signInEmail, signInPage } from './pages.js';
import { SignInLinkThrottle } from './throttle.js';
import { SignInTokens } from './tokens.js';

const emailSchema = z.object({
  email: storableText({ min: 0, max: 254 }).pipe(z.email('must be an e-mail address')),
});

export interface CustomerAuthRoutesDeps {
  redis: Redis;
  sessions: SessionStore;
  mailer: Mailer;
  logger: Logger;
  /** The site's public URL (links in e-mails point there); unset: the request's own host (local installs). */
  publicUrl: string | undefined;
  /** Secure cookies when the site is served over https. */
  secureCookies: boolean;
}

const sendPage = (res: Response, status: number, html: string) => {
  res.status(status).set('Cache-Control', 'no-store').type('html').send(html);
};

/**
 * Customer sign-in by a one-time link e-mailed to the address (issue 7, ARCHITECTURE section 8): GET and POST
 * /api/login, GET /api/login/callback, GET /api/logout. The session is the one admins get (ADR 006), of kind
 * 'customer' with the normalised address as its subject.
 */
export function customerAuthRoutes(deps: CustomerAuthRoutesDeps): Router {
  const { sessions, mailer, logger, publicUrl, secureCookies } = deps;
  const tokens = new SignInTokens(deps.redis);
  const throttle = new SignInLinkThrottle(deps.redis);
  // As the admin login sets it: no Max-Age, HttpOnly, SameSite=Lax, Secure behind https.
  const cookieOptions: CookieOptions = { httpOnly: true, sameSite: 'lax', path: '/', secure: secureCookies };
  const siteOrigin = publicUrl ? new URL(publicUrl).origin : null;
  // Links in e-mails never take their host from the request when PUBLIC_URL is set (no Host-header poisoning).
  const originOf = (req: Request) => siteOrigin ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
  const router = Router();

  router.get('/login', (_req, res) => {
    sendPage(res, 200, signInPage());
  });

  router.post('/login', express.urlencoded({ extended: false, limit: '10kb' }), async (req, res) => {
    const parsed = emailSchema.safeParse(req.body ?? {});
    if (!parsed.success) {
      const typed = typeof req.body?.email === 'string' ? req.body.email.slice(0, 254) : '';
      sendPage(
        res,
        400,
        signInPage({ email: typed, error: 'Enter an e-mail address, like name@example.com.' }),
      );
      return;
    }
    const email = customerEmailKey(parsed.data.email);
    const ip = req.ip ?? 'unknown';
    const verdict = await throttle.request(email, ip);
    if (!verdict.allowed) {
      // The same page as a sent link: the throttle says nothing about the address either.
      logger.warn(
        { ip, limit: verdict.limit, requestId: req.requestId },
        'sign-in link refused: over the limit',
      );
      sendPage(res, 200, checkInboxPage(parsed.data.email));
      return;
    }
    const token = await tokens.issue(email);
    const link = `${originOf(req)}/api/login/callback?token=${encodeURIComponent(token)}`;
    try {
      await mailer.send({
        to: email,
        ...signInEmail(link),
        messageId: mailer.messageIdFor('sign-in', randomUUID()),
      });
    } catch (error) {
      await tokens.consume(token);
      logger.error({ err: error, requestId: req.requestId }, 'sign-in link not sent');
      sendPage(res, 503, sendFailedPage());
      return;
    }
    sendPage(res, 200, checkInboxPage(parsed.data.email));
  });

  router.get('/login/callback', async (req, res) => {
    const token = typeof req.query.token === 'string' ? req.query.token : '';
    const email = token ? await tokens.consume(token) : null;
    if (!email) {
      sendPage(res, token ? 410 : 400, linkExpiredPage());
      return;
    }
    // A fresh session at every sign-in, so a token planted before it (session fixation) is worth nothing.
    const previous = sessionToken(req.get('cookie'));
    if (previous) await sessions.destroy(previous);
    const sid = await sessions.create({
      kind: 'customer',
      subjectId: email,
      createdAt: new Date().toISOString(),
    });
    res.cookie(SESSION_COOKIE, sid, cookieOptions);
    res.set('Cache-Control', 'no-store').redirect(303, '/account');
  });

  router.get('/logout', async (req, res) => {
    const token = sessionToken(req.get('cookie'));
    if (token) await sessions.destroy(token);
    res.clearCookie(SESSION_COOKIE, cookieOptions);
    res.set('Cache-Control', 'no-store').redirect(303, '/');
  });

  return router;
}
