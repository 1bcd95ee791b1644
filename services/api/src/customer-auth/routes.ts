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
import { isOwnNavigation } from '../http/same-origin.js';
import {
  checkInboxPage,
  confirmSignInPage,
  confirmSignOutPage,
  linkExpiredPage,
  sendFailedPage,
  signInEmail,
  signInPage,
} from './pages.js';
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
  /** The site's public URL, without a trailing slash: sign-in links point there, whatever the request's Host. */
  publicUrl: string;
  /** Secure cookies when the site is served over https. */
  secureCookies: boolean;
}

const sendPage = (res: Response, status: number, html: string) => {
  res.status(status).set('Cache-Control', 'no-store').type('html').send(html);
};

/**
 * Customer sign-in by a one-time link e-mailed to the address: GET and POST /api/login, /api/login/callback,
 * /api/logout. The session is the one admins get (ADR 006), of kind 'customer' with the normalised address as its
 * subject. The callback and logout change state only when the browser says the navigation is the visitor's own
 * (typed, bookmarked, opened from a mail program, or a link on this site) or by a POST from this site's own page;
 * a link on another site gets a page whose button does it.
 */
export function customerAuthRoutes(deps: CustomerAuthRoutesDeps): Router {
  const { sessions, mailer, logger, publicUrl, secureCookies } = deps;
  const tokens = new SignInTokens(deps.redis);
  const throttle = new SignInLinkThrottle(deps.redis);
  // As the admin login sets it: no Max-Age, HttpOnly, SameSite=Lax, Secure behind https.
  const cookieOptions: CookieOptions = { httpOnly: true, sameSite: 'lax', path: '/', secure: secureCookies };
  const form = express.urlencoded({ extended: false, limit: '10kb' });
  const router = Router();

  router.get('/login', (_req, res) => {
    sendPage(res, 200, signInPage());
  });

  router.post('/login', form, async (req, res) => {
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
    const link = `${publicUrl}/api/login/callback?token=${encodeURIComponent(token)}`;
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

  const signInWith = async (req: Request, res: Response, token: string) => {
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
  };

  router.get('/login/callback', async (req, res) => {
    const token = typeof req.query.token === 'string' ? req.query.token : '';
    if (token && !isOwnNavigation(req)) {
      sendPage(res, 200, confirmSignInPage(token));
      return;
    }
    await signInWith(req, res, token);
  });

  router.post('/login/callback', form, async (req, res) => {
    await signInWith(req, res, typeof req.body?.token === 'string' ? req.body.token : '');
  });

  const signOut = async (req: Request, res: Response) => {
    const token = sessionToken(req.get('cookie'));
    if (token) await sessions.destroy(token);
    res.clearCookie(SESSION_COOKIE, cookieOptions);
    res.set('Cache-Control', 'no-store').redirect(303, '/');
  };

  router.get('/logout', async (req, res) => {
    if (!isOwnNavigation(req)) {
      sendPage(res, 200, confirmSignOutPage());
      return;
    }
    await signOut(req, res);
  });

  router.post('/logout', signOut);

  return router;
}
